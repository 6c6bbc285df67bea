/// <reference lib="dom" />
/**
 * The rule editor's DOM: a plain textarea (a phone's own keyboard, selection
 * and zoom work in it; a code editor library would add a few hundred KB for
 * colours) with a line-number gutter beside it, the one-line problem under
 * it, the gate a link's code waits behind, and the file buttons.
 */
import { element } from '../dom.js';

export class EditorView {
  readonly panel = element<HTMLDivElement>('editor');
  readonly source = element<HTMLTextAreaElement>('rule-source');
  readonly files = element<HTMLSelectElement>('rule-files');
  readonly newButton = element<HTMLButtonElement>('new-rule');
  readonly editButton = element<HTMLButtonElement>('edit-rule');
  readonly shareButton = element<HTMLButtonElement>('share');
  readonly downloadButton = element<HTMLButtonElement>('download');
  readonly deleteButton = element<HTMLButtonElement>('delete-rule');
  readonly fileInput = element<HTMLInputElement>('open-file');
  readonly gateRun = element<HTMLButtonElement>('gate-run');
  private readonly gutter = element<HTMLPreElement>('gutter');
  private readonly about = element<HTMLParagraphElement>('editor-about');
  private readonly problem = element<HTMLParagraphElement>('source-problem');
  private readonly gate = element<HTMLDivElement>('gate');
  private readonly gateText = element<HTMLParagraphElement>('gate-text');
  private readonly shareBox = element<HTMLDivElement>('share-box');
  private readonly shareLink = element<HTMLInputElement>('share-link');
  private readonly shareLocal = element<HTMLDivElement>('share-local');
  private readonly shareHash = element<HTMLInputElement>('share-hash');
  private lines = 0;

  constructor() {
    this.source.addEventListener('input', () => this.number());
    this.source.addEventListener('scroll', () => {
      this.gutter.scrollTop = this.source.scrollTop;
    });
  }

  open(text: string, about: string): void {
    this.panel.hidden = false;
    this.source.value = text;
    this.about.textContent = about;
    this.showProblem(null);
    this.shareBox.hidden = true;
    this.number();
  }

  /** Numbers the gutter to the text's lines (rewritten only when their count changes: typing stays cheap). */
  private number(): void {
    const count = this.source.value.split('\n').length;
    if (count === this.lines) return;
    this.lines = count;
    this.gutter.textContent = Array.from({ length: count }, (_, index) => String(index + 1)).join('\n');
    this.gutter.scrollTop = this.source.scrollTop;
  }

  /** The one line that says why the text is not a rule (the last good version keeps answering), or none. */
  showProblem(message: string | null): void {
    this.problem.textContent = message ?? '';
    this.problem.hidden = message === null;
    if (message) this.source.setAttribute('aria-invalid', 'true');
    else this.source.removeAttribute('aria-invalid');
  }

  /** Holds a link's code behind a button: shown, never run until the person says so. */
  holdBehindGate(text: string | null): void {
    this.gate.hidden = text === null;
    this.gateText.textContent = text ?? '';
  }

  /** Moves the focus to the gate's text (never its button: a stray Space or Enter would press it). */
  focusGate(): void {
    this.gateText.tabIndex = -1;
    this.gateText.focus();
  }

  get gated(): boolean {
    return !this.gate.hidden;
  }

  /**
   * The link to share; `hash` (the part after #) when the page is a file on this device, whose link works only
   * here: then that part is what to send with the page, and it is the text selected.
   */
  showLink(link: string, hash: string | null): void {
    this.shareBox.hidden = false;
    this.shareLink.value = link;
    this.shareLocal.hidden = hash === null;
    this.shareHash.value = hash ?? '';
    (hash === null ? this.shareLink : this.shareHash).select();
  }
}

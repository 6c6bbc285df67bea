/// <reference lib="dom" />
/**
 * The rule workbench: write a rule file in the page (or open one: the
 * examples ship in the page, a file can be chosen or dropped, the rules
 * written here are kept in the browser), and read its odds as a built-in's.
 * Every edit is loaded in a fresh sandbox a moment after the typing stops;
 * a version that does not load leaves its one-line problem under the code
 * and the last good version answering.
 *
 *   typing ─► (debounce) ─► Sandbox.load ─► refused: the problem under the code
 *                                       └─► loaded: packSource ─► sandboxedRule ─► the calculator shows it
 *   a link #~<packed>?… ─► unpackSource ─► the code shown behind the gate ─► "Run this rule" ─► as above
 *
 * Whether the editor's text may run is state of its own, not a check at
 * each event: the text's origin (the person's own — typed, opened, shipped
 * — or a link's) and the consent given to one exact text. A link's text
 * runs, and is kept, only once "Run this rule" was chosen for that very
 * text; whatever puts another text in the editor (a link, a file, back or
 * forward, a load still in flight) changes the provenance with it, and
 * every load asks the provenance of the text it loads at its start and
 * again before it is shown or kept.
 */
import type { Rule } from '../../contract/types.js';
import type { Calculator } from '../controller.js';
import { clipMessage, readHash } from '../form-values.js';
import { EditorView } from './editor-view.js';
import { declaredId, fileNameOfId } from './file-name.js';
import { deleteKept, keepRule, keptRules } from './kept.js';
import { isSandboxed, type SandboxedRule, sandboxedRule } from './proxy-rule.js';
import { Sandbox } from './sandbox.js';
import { packSource, unpackSource } from './share.js';

/** A rule file shipped in the page (examples/rules/), by its file name. */
export interface ShippedFile {
  name: string;
  source: string;
}

/** The names of a text that came with none (a new rule, a link's code): Download names it by its id instead. */
const PLACEHOLDER_NAMES = new Set(['my-rule.mjs', 'shared-rule.mjs']);

/** How long the typing must pause before the text is loaded, in milliseconds. */
const PAUSE_MS = 120;
/** How long the gate's button stays disabled after it shows a text: a click or key meant for before cannot run it. */
export const GATE_ARM_MS = 600;

/**
 * Where the editor's text came from. `own`: the person's (typed, opened from their device, shipped in the page, or a
 * link's they ran). `link`: a link's, which may run only as `consented`, the exact text "Run this rule" was chosen
 * for (null: not yet). `serial` counts texts put in the editor: a load or a link read begun under an older one is
 * dropped.
 */
interface Provenance {
  origin: 'own' | 'link';
  consented: string | null;
  serial: number;
}

/** A rule to start from: the smallest rule file, a roll-off, in the trial form. */
const NEW_RULE = `// my-rule.mjs — a roll-off: each player rolls a die, A adds a bonus; a tie is rolled again.
export default {
  id: 'my-rule',
  title: 'My roll-off',
  summary: 'each player rolls a die, A adds a bonus; highest wins, a tie is rolled again',
  source: 'our house rules',
  params: [
    { name: 'sides', type: 'integer', default: 6, min: 2, max: 20, doc: 'sides of each die' },
    { name: 'bonus', type: 'integer', default: 1, min: 0, max: 5, doc: "added to player A's roll" },
  ],
  metrics: [{ name: 'a.wins', doc: 'player A wins the roll-off', probability: true }],
  start: () => ({ winner: null }),
  step(state, dice, p) {
    const a = dice.d(p.sides) + p.bonus;
    const b = dice.d(p.sides);
    return a === b ? state : { winner: a > b ? 'a' : 'b' };
  },
  done: (state) => state.winner !== null,
  report(state, p, out) {
    out['a.wins'] = state.winner === 'a';
  },
};
`;

export class Workbench {
  readonly view = new EditorView();
  /** How long a rule may run without a word before the page stops it (tests shorten it). */
  limitMs = 5000;
  private name = 'my-rule.mjs';
  /** The id of the text that loaded last, with that text. */
  private loadedId: { text: string; id: string } | null = null;
  /** Counts loads: a slower load of an older text never replaces a newer one. */
  private loads = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;
  /** The sandbox of the version being loaded, until it answers. */
  private loading: Sandbox | null = null;
  /** A link's parameters, waiting for its code to be run. */
  private linkEntries: Array<[string, string]> | null = null;
  private provenance: Provenance = { origin: 'own', consented: null, serial: 0 };
  private arming: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly calculator: Calculator,
    private readonly sandboxUrl: string,
    private readonly shipped: readonly ShippedFile[],
  ) {
    const { view } = this;
    this.listFiles();
    view.source.addEventListener('input', () => {
      // A link's text, edited or not, stays a link's: typing in it never runs it.
      if (this.provenance.origin === 'own') this.soon();
    });
    view.newButton.addEventListener('click', () => this.open(NEW_RULE, 'my-rule.mjs', 'A new rule file.'));
    view.editButton.addEventListener('click', () => this.edit());
    view.files.addEventListener('change', () => this.openListed());
    view.gateRun.addEventListener('click', () => this.confirm());
    view.shareButton.addEventListener('click', () => this.share());
    view.downloadButton.addEventListener('click', () => this.download());
    view.deleteButton.addEventListener('click', () => this.delete());
    // Another tab of this page kept or deleted a rule: the list says so (what it holds is read as data when chosen).
    window.addEventListener('storage', () => this.listFiles());
    view.fileInput.addEventListener('change', () => {
      const file = view.fileInput.files?.[0];
      if (file) this.track(this.openFile(file));
      view.fileInput.value = '';
    });
    const target = element('workbench');
    target.addEventListener('dragover', (event) => event.preventDefault());
    target.addEventListener('drop', (event) => {
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) this.track(this.openFile(file));
    });
  }

  /** Settles once the text typed last is loaded (or refused) and its answer shown. */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.pending;
      await seen;
    } while (seen !== this.pending);
    await this.calculator.idle();
  }

  /** The examples shipped in the page, then the rules kept in this browser. */
  listFiles(): void {
    const { files } = this.view;
    files.replaceChildren(new Option('Open a rule file…', ''));
    const group = (label: string, names: string[], prefix: string) => {
      if (names.length === 0) return;
      const node = document.createElement('optgroup');
      node.label = label;
      for (const name of names) node.append(new Option(name, `${prefix}${name}`));
      files.append(node);
    };
    group(
      'Examples (examples/rules/)',
      this.shipped.map((file) => file.name),
      'example:',
    );
    group(
      'Kept in this browser',
      keptRules().map((rule) => rule.name),
      'kept:',
    );
  }

  private openListed(): void {
    const value = this.view.files.value;
    this.view.files.value = '';
    const example = this.shipped.find((file) => `example:${file.name}` === value);
    const kept = keptRules().find((rule) => `kept:${rule.name}` === value);
    if (example) this.open(example.source, example.name, `examples/rules/${example.name}, shipped in this page.`);
    else if (kept) this.open(kept.source, kept.name, `${kept.name}, kept in this browser.`);
  }

  /** Edit the rule shown: a rule written here, or a built-in's step-form port (examples/rules/<id>-steps.mjs). */
  private edit(): void {
    const rule = this.calculator.rule;
    if (isSandboxed(rule)) {
      this.view.panel.hidden = false;
      this.view.source.focus();
      return;
    }
    const port = this.shipped.find((file) => file.name === `${rule.id}-steps.mjs` || file.name === `${rule.id}.mjs`);
    if (port) this.open(port.source, port.name, `examples/rules/${port.name}: ${rule.title} as a rule file.`);
    else this.open(NEW_RULE, 'my-rule.mjs', `${rule.title} has no rule file in this page: a new rule file.`);
  }

  private async openFile(file: File): Promise<void> {
    const text = await file.text();
    this.open(text, file.name.replace(/[\u0000-\u001f\u007f]+/g, ' '), `${file.name}, opened from this device.`);
  }

  /** Shows a text in the editor and runs it (it is the page's own, or the person's). */
  private open(text: string, name: string, about: string): void {
    this.replaceText('own');
    this.view.holdBehindGate(null);
    this.view.open(text, about);
    this.name = name;
    this.listFiles();
    this.linkEntries = null;
    this.track(this.load(text, false));
  }

  /**
   * A new text comes into the editor: any typing not yet loaded, and any load or link read in flight, belong to the
   * old one and are dropped; the new text's origin is `origin`, with no consent.
   */
  private replaceText(origin: Provenance['origin']): number {
    clearTimeout(this.timer);
    this.release();
    this.release = () => undefined;
    this.loads += 1;
    this.loading?.stop();
    this.loading = null;
    const serial = this.provenance.serial + 1;
    this.provenance = { origin, consented: null, serial };
    return serial;
  }

  /** Whether a text may run: the person's own, or the very text they chose "Run this rule" for. */
  private mayRun(text: string): boolean {
    const { origin, consented } = this.provenance;
    return origin === 'own' || consented === text;
  }

  /** "Run this rule": consent to the text the editor shows now, and only to it. */
  private confirm(): void {
    const { view } = this;
    if (view.gateRun.disabled || !view.gated) return;
    const text = view.source.value;
    // The person's from now on: their edits of it are theirs. Another text in the editor replaces this provenance.
    this.provenance = { origin: 'own', consented: text, serial: this.provenance.serial };
    view.holdBehindGate(null);
    this.track(this.load(text, true));
  }

  /**
   * A link that carries code (`#~<packed>?…`): the code is shown and runs only once the person says so — unless it
   * is, character for character, a rule this browser keeps or the page ships.
   */
  openLink(packed: string, entries: Array<[string, string]>, refuse: (problem: string) => void): void {
    this.track(
      this.readLink(packed, entries).then((problem) => {
        if (problem) refuse(problem);
      }),
    );
  }

  private async readLink(packed: string, entries: Array<[string, string]>): Promise<string | null> {
    const serial = this.provenance.serial;
    const unpacked = await unpackSource(packed);
    // A text put in the editor meanwhile (another link, a file, a new rule) is the newer: this link is dropped.
    if (serial !== this.provenance.serial) return null;
    if ('problem' in unpacked) return unpacked.problem;
    const { source } = unpacked;
    // Only the page's own examples run unasked: what this browser keeps, any page of this origin could have written.
    const shipped = this.shipped.find((file) => file.source === source);
    const kept = keptRules().find((file) => file.source === source);
    this.replaceText(shipped ? 'own' : 'link');
    this.view.open(source, shipped ? `${shipped.name}, from the link.` : 'From the link you opened.');
    this.name = shipped?.name ?? kept?.name ?? 'shared-rule.mjs';
    this.linkEntries = entries;
    this.calculator.clear('No answer yet: the link carries a rule’s code, which has not run (see the rule above).');
    if (shipped) {
      this.view.holdBehindGate(null);
      await this.load(source, false);
      return null;
    }
    const lines = source.split('\n').length;
    this.holdBehindGate(
      `This link carries a rule’s code (${lines} line${lines === 1 ? '' : 's'}), shown below` +
        `${kept ? `; it is the text of ${kept.name}, kept in this browser` : ''}. Read it first: it runs in this ` +
        `page (in a sandbox, with no network) only when you choose Run this rule.`,
    );
    return null;
  }

  /**
   * Shows the gate with its button disabled for GATE_ARM_MS, and takes the focus from wherever it was (a focused
   * button would run on a stray Space or Enter) to the gate's text.
   */
  private holdBehindGate(text: string): void {
    const { view } = this;
    view.holdBehindGate(text);
    view.gateRun.disabled = true;
    view.focusGate();
    clearTimeout(this.arming);
    this.arming = setTimeout(() => {
      view.gateRun.disabled = false;
    }, GATE_ARM_MS);
  }

  private soon(): void {
    clearTimeout(this.timer);
    this.release();
    this.pending = new Promise((resolve) => {
      this.release = resolve;
      this.timer = setTimeout(() => {
        this.release = () => undefined;
        void this.load(this.view.source.value, true).then(resolve, resolve);
      }, PAUSE_MS);
    });
  }

  private track(work: Promise<void>): void {
    // A failure here is muster's own (a rule's faults are shown as its problems): logged, never a page that hangs.
    this.pending = this.pending.then(() => work).catch((error: unknown) => console.error(error));
  }

  /** Loads a text in a fresh sandbox; on success the calculator shows it (and `keep` keeps it in this browser). */
  private async load(text: string, keep: boolean): Promise<void> {
    // The one place a text runs: only as its provenance allows, asked again before it is shown or kept.
    if (!this.mayRun(text)) return;
    const serial = this.provenance.serial;
    const name = this.name;
    const mine = ++this.loads;
    const current = () => mine === this.loads && serial === this.provenance.serial && this.mayRun(text);
    // A version typed over before it loaded is not waited for: its worker is stopped, the machine's cores are the
    // new one's.
    this.loading?.stop();
    const sandbox = new Sandbox(this.sandboxUrl, text, name, () => this.limitMs);
    this.loading = sandbox;
    let reply: Awaited<ReturnType<Sandbox['load']>>;
    try {
      reply = await sandbox.load();
    } catch (error) {
      reply = { kind: 'refused', id: 0, message: error instanceof Error ? error.message : String(error) };
    }
    if (!current()) return sandbox.stop();
    this.loading = null;
    if (reply.kind !== 'loaded') {
      sandbox.stop();
      const problem = reply.kind === 'refused' ? reply.message : 'the sandbox did not answer';
      this.view.showProblem(problem);
      // A link's code that ran and was stopped or refused: the answer no longer says it has not run.
      if (keep && this.calculator.result === null && this.linkEntries)
        this.calculator.clear(clipMessage(`No answer: the rule’s code ran and did not load: ${problem}`));
      return;
    }
    let rule: SandboxedRule;
    try {
      rule = sandboxedRule(reply.rule, sandbox, await packSource(text));
    } catch (error) {
      sandbox.stop();
      this.view.showProblem(error instanceof Error ? error.message : String(error));
      return;
    }
    if (!current()) return sandbox.stop();
    this.loadedId = { text, id: rule.id };
    this.view.showProblem(null);
    // Ran by the person's own will (typed, or a link's confirmed): theirs from now on, and kept.
    if (keep) this.provenance = { origin: 'own', consented: null, serial };
    if (keep && keepRule({ name, source: text })) this.listFiles();
    this.show(rule);
  }

  /** The calculator switches to the new version, keeping the values of the parameters it still has. */
  private show(rule: SandboxedRule): void {
    const { calculator } = this;
    const before: Rule = calculator.rule;
    const simulation = calculator.form.readSimulation();
    let raw = calculator.form.readFields(before);
    let problems: string[] = [];
    if (this.linkEntries) {
      const reading = readHash([rule], { ruleId: rule.id, entries: this.linkEntries });
      raw = reading.raw;
      problems = reading.problems;
      Object.assign(simulation, reading.simulation);
      this.linkEntries = null;
    }
    if (isSandboxed(before)) before.sandbox.stop();
    calculator.selectRule(rule, raw, simulation);
    calculator.showProblems(problems);
    calculator.recompute();
  }

  private share(): void {
    // The address is the question (a rule written here carries its code): the link is the address. A page opened
    // from a file names a folder of this device: what travels is the page and the part after #.
    const local = location.protocol === 'file:';
    this.view.showLink(location.href, local ? location.hash : null);
    // Where the browser allows it (not every one does from file://), what to send is on the clipboard too.
    navigator.clipboard?.writeText(local ? location.hash : location.href).catch(() => undefined);
  }

  /** The name Download gives the editor's text: the file's own, else (a new rule, a link's) `<id>.mjs`. */
  private downloadName(): string {
    if (!PLACEHOLDER_NAMES.has(this.name)) return this.name;
    const text = this.view.source.value;
    const id = this.loadedId?.text === text ? this.loadedId.id : declaredId(text);
    return (id === null ? null : fileNameOfId(id)) ?? this.name;
  }

  private download(): void {
    const url = URL.createObjectURL(new Blob([this.view.source.value], { type: 'text/javascript' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = this.downloadName();
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  private delete(): void {
    deleteKept(this.name);
    this.listFiles();
  }
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/// <reference lib="dom" />
/**
 * The page's side of a rule's sandbox (./sandbox-worker.ts): one worker per
 * version of a rule file, started from a Blob URL as the simulation workers
 * are (so it runs from file://), and stopped when it does not answer within
 * the time limit — a rule that loops forever is stopped by the page, not by
 * closing the tab. What a worker sends is data from the rule's own code: it
 * is checked here before the page uses it.
 */
import type { SandboxReply, SandboxRequest } from './sandbox-messages.js';

/** How long a rule may run without a word before it is stopped (a simulation's progress counts as a word). */
export const DEFAULT_LIMIT_MS = 5000;

/**
 * The rule's fault, not muster's (it ran too long, failed to load, threw from a timer): shown as a rule's
 * refusal is.
 */
export class SandboxFault extends Error {
  override name = 'UsageError';
}

/** The rule's reply to one request; rejects when the worker is stopped, or fails in a way that is not a reply. */
export interface Pending {
  reply: Promise<SandboxReply>;
  /** Stops the worker: a newer change makes this request moot (the next request starts a fresh one). */
  cancel(): void;
}

/**
 * One worker started ahead, its bundle already compiled, for the next version typed: starting a worker costs a good
 * part of the time from a keystroke to the answer. It has run no rule's code yet.
 */
let spare: { url: string; worker: Worker } | null = null;

function freshWorker(url: string): Worker {
  const ready = spare?.url === url ? spare.worker : new Worker(url);
  spare = { url, worker: new Worker(url) };
  return ready;
}

export class Sandbox {
  private worker: Worker | null = null;
  private loaded: Promise<SandboxReply> | null = null;
  private nextId = 1;
  /** Settles the request in flight when its worker is stopped: a stopped request is never answered. */
  private abandon: (() => void) | null = null;

  /** `url`: the sandbox worker's Blob URL; `name`: the file, for messages; `limitMs`: read at every request. */
  constructor(
    private readonly url: string,
    readonly source: string,
    readonly name: string,
    private readonly limitMs: () => number,
  ) {}

  /** Loads the rule (in a fresh worker if the last one was stopped); the reply is `loaded` or `refused`. */
  load(): Promise<SandboxReply> {
    if (this.worker && this.loaded) return this.loaded;
    this.worker = freshWorker(this.url);
    const pending = this.send(
      { kind: 'load', id: 0, source: this.source, name: this.name },
      'its top-level code did not finish',
    );
    this.loaded = pending.reply;
    return this.loaded;
  }

  /** Asks the loaded rule a question; `onProgress` hears a simulation's progress. */
  ask(
    request: Omit<SandboxRequest & { kind: 'answer' }, 'id'>,
    onProgress: (done: number, total: number) => void,
  ): Pending {
    let cancelled = false;
    let inner: Pending | null = null;
    const reply = this.load().then((loaded) => {
      if (loaded.kind !== 'loaded') throw new SandboxFault(loaded.kind === 'refused' ? loaded.message : 'no rule');
      if (cancelled) return new Promise<SandboxReply>(() => undefined);
      inner = this.send({ ...request, id: 0 }, 'the rule’s code did not return', onProgress);
      return inner.reply;
    });
    return {
      reply,
      cancel: () => {
        cancelled = true;
        if (inner) this.stop();
      },
    };
  }

  /** Stops the worker; the next request starts a fresh one and loads the rule again. */
  stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.loaded = null;
    const abandon = this.abandon;
    this.abandon = null;
    abandon?.();
  }

  private send(
    request: SandboxRequest,
    /** What a stop says ran too long, as muster run --timeout says it: "its top-level code did not finish". */
    running: string,
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Pending {
    const worker = this.worker as Worker;
    const id = this.nextId++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reply = new Promise<SandboxReply>((resolve, reject) => {
      const limit = this.limitMs();
      const watch = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const seconds = Number((limit / 1000).toFixed(3));
          reject(
            new SandboxFault(`${this.name}: ${running} within ${seconds} s (an endless loop?); the page stopped it`),
          );
          this.stop();
        }, limit);
      };
      watch();
      this.abandon = () => {
        clearTimeout(timer);
        reject(new SandboxFault(`${this.name}: stopped before it answered`));
      };
      worker.onmessage = ({ data }: MessageEvent<unknown>) => {
        const message = checkedReply(data);
        if (!message || message.id !== id) return;
        if (message.kind === 'progress') {
          watch();
          onProgress(message.done, message.total);
          return;
        }
        clearTimeout(timer);
        this.abandon = null;
        resolve(message);
      };
      worker.onerror = (event) => {
        // An error the rule's code threw from a timer of its own, outside any request: it ends the request.
        event.preventDefault();
        clearTimeout(timer);
        reject(new SandboxFault(`${this.name}: ${event.message || 'the rule failed'} (outside any call of muster’s)`));
        this.stop();
      };
    });
    worker.postMessage({ ...request, id });
    return { reply, cancel: () => this.stop() };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A reply's shape, checked: the rule's own code runs in the worker and can post anything. What the page then reads
 * of it (texts, numbers) it shows as text, as it shows a bundled rule's.
 */
function checkedReply(data: unknown): SandboxReply | null {
  if (!isRecord(data) || typeof data.id !== 'number' || typeof data.kind !== 'string') return null;
  switch (data.kind) {
    case 'progress':
      return typeof data.done === 'number' && typeof data.total === 'number' ? (data as SandboxReply) : null;
    case 'refused':
    case 'fault':
      return typeof data.message === 'string' ? (data as SandboxReply) : null;
    case 'loaded':
      return isRecord(data.rule) && Array.isArray(data.rule.params) ? (data as SandboxReply) : null;
    case 'answered':
      return Array.isArray(data.fieldErrors) && Array.isArray(data.formErrors) ? (data as SandboxReply) : null;
    default:
      return null;
  }
}

/// <reference lib="dom" />
/**
 * The page's side of a rule's sandbox (./sandbox-worker.ts): one worker per
 * version of a rule file, started from a Blob URL as the simulation workers
 * are (so it runs from file://), and stopped when it does not answer within
 * the time limit — a rule that loops forever is stopped by the page, not by
 * closing the tab.
 *
 * The rule's code runs in the worker beside muster's harness, so nothing the
 * worker's global scope offers is trusted: the page and the harness talk
 * over a MessageChannel port the harness takes before any rule code runs
 * (the rule's code never sees it), a message on the worker's own channel is
 * the rule's and stops it, and every reply on the port is checked
 * (./reply-check.ts) before the page uses it.
 *
 *   page ─port─► harness: load, answer        harness ─port─► page: checked, or refused with one line
 *   rule code ─postMessage─► page: never a reply; the worker is stopped
 */
import { checkedReply, type Expected } from './reply-check.js';
import type { SandboxReply, SandboxRequest } from './sandbox-messages.js';

/** How long a rule may run without a word before it is stopped (a simulation's progress counts as a word). */
export const DEFAULT_LIMIT_MS = 5000;
/**
 * However much progress a request reports, it is stopped after this many times the limit from its start: progress
 * keeps a long simulation going, never one past this.
 */
export const HARD_LIMIT_FACTOR = 60;

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
  /** The page's end of the channel the harness took before any rule code ran. */
  private port: MessagePort | null = null;
  private loaded: Promise<SandboxReply> | null = null;
  private nextId = 1;
  /** Ends the request in flight with a fault (the worker stopped, or the rule spoke out of turn): never pending. */
  private abandon: ((message: string) => void) | null = null;

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
    const worker = freshWorker(this.url);
    const channel = new MessageChannel();
    worker.postMessage({ kind: 'port' }, [channel.port2]);
    this.worker = worker;
    this.port = channel.port1;
    // Only the rule's own code posts on the worker's channel (the harness answers on the port): stopped at once.
    worker.onmessage = () => this.refuse('its code posted a message of its own, which the page does not read');
    worker.onerror = (event) => {
      // An error the rule's code threw from a timer of its own, outside any request: it ends the request.
      event.preventDefault();
      this.refuse(`${event.message || 'the rule failed'} (outside any call of muster’s)`, false);
    };
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
  stop(message = `${this.name}: stopped before it answered`): void {
    if (this.worker) {
      this.worker.onmessage = null;
      this.worker.onerror = null;
      this.worker.terminate();
    }
    this.port?.close();
    this.worker = null;
    this.port = null;
    this.loaded = null;
    const abandon = this.abandon;
    this.abandon = null;
    abandon?.(message);
  }

  /** Ends the request in flight, and the worker, with the one line that says why. */
  private refuse(why: string, refused = true): void {
    this.stop(
      refused
        ? `${this.name}: the page refused its sandbox’s reply: ${why}; the page stopped it`
        : `${this.name}: ${why}`,
    );
  }

  private send(
    request: SandboxRequest,
    /** What a stop says ran too long, as muster run --timeout says it: "its top-level code did not finish". */
    running: string,
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Pending {
    const port = this.port as MessagePort;
    const id = this.nextId++;
    const trials = request.kind === 'answer' ? (request.options?.trials ?? null) : null;
    const expected: Expected = { id, trials, done: 0 };
    let idle: ReturnType<typeof setTimeout> | undefined;
    let hard: ReturnType<typeof setTimeout> | undefined;
    const reply = new Promise<SandboxReply>((resolve, reject) => {
      const limit = this.limitMs();
      const seconds = (ms: number) => Number((ms / 1000).toFixed(3));
      const end = () => {
        clearTimeout(idle);
        clearTimeout(hard);
        this.abandon = null;
      };
      this.abandon = (message) => {
        end();
        reject(new SandboxFault(message));
      };
      const watch = () => {
        clearTimeout(idle);
        idle = setTimeout(
          () =>
            this.stop(`${this.name}: ${running} within ${seconds(limit)} s (an endless loop?); the page stopped it`),
          limit,
        );
      };
      watch();
      hard = setTimeout(
        () => this.stop(`${this.name}: ${running} within ${seconds(limit * HARD_LIMIT_FACTOR)} s; the page stopped it`),
        limit * HARD_LIMIT_FACTOR,
      );
      port.onmessage = ({ data }: MessageEvent<unknown>) => {
        const checked = checkedReply(data, expected);
        if (!checked) return;
        if ('refused' in checked) return this.refuse(checked.refused);
        const message = checked.reply;
        if (message.kind === 'progress') {
          watch();
          onProgress(message.done, message.total);
          return;
        }
        end();
        resolve(message);
      };
    });
    port.postMessage({ ...request, id });
    return { reply, cancel: () => this.stop() };
  }
}

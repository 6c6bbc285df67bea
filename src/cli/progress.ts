/**
 * A progress bar on stderr with the rate and time left. It appears only on
 * a terminal, and only once a run has lasted a second, so quick answers and
 * piped output stay clean.
 */
export class ProgressBar {
  readonly #write: (text: string) => void;
  readonly #enabled: boolean;
  readonly #now: () => number;
  readonly #started: number;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #drawn = false;

  /** `now` (milliseconds) is for tests; the bar reads the real clock otherwise. */
  constructor(write: (text: string) => void, enabled: boolean, now: () => number = () => performance.now()) {
    this.#write = write;
    this.#enabled = enabled;
    this.#now = now;
    this.#started = now();
  }

  update(done: number, target: number): void {
    if (!this.#enabled) return;
    const now = this.#now();
    const elapsed = (now - this.#started) / 1000;
    if (elapsed < 1 || now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const fraction = target > 0 ? Math.min(1, done / target) : 0;
    const width = 28;
    const filled = Math.round(fraction * width);
    const rate = done / elapsed;
    const remaining = rate > 0 ? (target - done) / rate : Number.POSITIVE_INFINITY;
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    this.#write(`\r${bar} ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatRate(rate)} trials/s  ETA ${formatDuration(remaining)}   `);
    this.#drawn = true;
  }

  /** Clears the bar's line, if one was drawn. */
  finish(): void {
    if (this.#drawn) this.#write('\r\x1b[2K');
    this.#drawn = false;
  }
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)}M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)}k`;
  return perSecond.toFixed(0);
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
}

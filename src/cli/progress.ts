/**
 * Whether the terminal asks for plain text: TERM=dumb, or NO_COLOR set to
 * anything (no-color.org). The bar then draws with # and - and clears its
 * line with spaces, never an escape sequence.
 */
export function plainTerminal(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TERM === 'dumb' || (env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

/**
 * A progress bar on stderr with the rate and time left. It appears only on
 * a terminal, and only once a run has lasted a second, so quick answers and
 * piped output stay clean. It counts trials (or, where nothing is
 * simulated, points solved).
 */
export class ProgressBar {
  readonly #write: (text: string) => void;
  readonly #enabled: boolean;
  readonly #now: () => number;
  readonly #started: number;
  readonly #plain: boolean;
  readonly #unit: string;
  readonly #already: number;
  #width = 0;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #drawn = false;

  /**
   * `now` (milliseconds) is for tests; the bar reads the real clock otherwise. `already`: units a resumed run
   * found done (a checkpoint's trials), counted in the bar but not in the rate, which is this process's own.
   */
  constructor(
    write: (text: string) => void,
    enabled: boolean,
    now: () => number = () => performance.now(),
    options: { plain?: boolean; unit?: string; already?: number } = {},
  ) {
    this.#write = write;
    this.#enabled = enabled;
    this.#now = now;
    this.#started = now();
    this.#plain = options.plain ?? plainTerminal();
    this.#unit = options.unit ?? 'trials';
    this.#already = options.already ?? 0;
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
    const rate = Math.max(0, done - this.#already) / elapsed;
    const remaining = rate > 0 ? (target - done) / rate : Number.POSITIVE_INFINITY;
    const bar = this.#plain
      ? '#'.repeat(filled) + '-'.repeat(width - filled)
      : '█'.repeat(filled) + '░'.repeat(width - filled);
    const text =
      `${bar} ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatRate(done)}/${formatRate(target)} ` +
      `${this.#unit}  ${formatRate(rate)} ${this.#unit}/s  ETA ${formatDuration(remaining)}   `;
    this.#width = Math.max(this.#width, text.length);
    this.#write(`\r${text}`);
    this.#drawn = true;
  }

  /** Clears the bar's line, if one was drawn. */
  finish(): void {
    if (this.#drawn) this.#write(this.#plain ? `\r${' '.repeat(this.#width)}\r` : '\r\x1b[2K');
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

import { writeStderr, writeStdout } from './standard-streams.js';

/** Where a command writes: the real process in the CLI, a buffer in tests. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (the progress bar shows only there). */
  errIsTTY: boolean;
  /** The terminal's width when stdout is a terminal; tables fit it (80 columns otherwise). */
  columns?: number;
}

export const processIo: Io = {
  out: writeStdout,
  err: writeStderr,
  errIsTTY: Boolean(process.stderr.isTTY),
  get columns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
};

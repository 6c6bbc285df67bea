import type { Io } from '../../src/output/io.js';

/** An Io that keeps what a command writes, for assertions. */
export function bufferIo(): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    errIsTTY: false,
    stdout: () => out,
    stderr: () => err,
  };
}

import { STDOUT } from '../output/files.js';
import type { Io } from '../output/io.js';

/**
 * Where a command prints its human report: standard output, unless an
 * output (`--json -`, `--csv -`) goes there, when the report moves to
 * stderr so the pipe carries only the data.
 */
export function reportIo(io: Io, ...outputs: ReadonlyArray<string | undefined>): Io {
  return outputs.includes(STDOUT) ? { ...io, out: io.err } : io;
}

/**
 * Every file muster reads as input (a shard, a checkpoint, a rule file) is
 * read through here, so that no input can hang a command or exhaust it:
 * only a regular file is read (never a device such as /dev/zero, a FIFO
 * that blocks until a writer comes, a folder, nor a link to one of those),
 * and only up to a size muster's own files never reach. The kind is checked
 * by path before the file is opened (opening some devices has effects of its
 * own) and again on the open descriptor, opened non-blocking, so a file
 * swapped for a FIFO in between cannot block either.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { JsonInputError, parseJsonInput } from './parse-json.js';

/** 256 MiB: a sweep of 10,000 points with tallies of 1,000 counts writes about 100 MB. */
const MAX_INPUT_BYTES = 256 * 2 ** 20;

/** Words for what a path is when it is not a regular file. */
function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EISDIR: 'it is a folder',
  EIO: 'input/output error',
};

/**
 * The bytes of the input file `path`. `name` is the option or argument that
 * named it, `allowed` what it should be and `shown` the path as the user
 * gave it, for the one-line refusal (`name: "path" is a device; allowed: …`).
 */
export function readInputBytes(path: string, name: string, allowed: string, shown: string = path): Buffer {
  const refuse = (why: string) => new UsageError(`${name}: ${JSON.stringify(shown)} ${why}; allowed: ${allowed}`);
  const failed = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return refuse(`cannot be read (${REASONS[code] ?? (code || 'unreadable')})`);
  };
  const check = (stats: Stats) => {
    const kind = kindOf(stats);
    if (kind) throw refuse(`is ${kind}, not a regular file`);
    if (stats.size > MAX_INPUT_BYTES) {
      throw refuse(`is ${stats.size} bytes, more than the ${MAX_INPUT_BYTES} an input may have`);
    }
  };
  let fd: number;
  try {
    check(statSync(path));
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    throw error instanceof UsageError ? error : failed(error);
  }
  try {
    check(fstatSync(fd));
    // Read to the end, but never past the limit: a file that grows while it is read is refused, not followed.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > MAX_INPUT_BYTES) {
        throw refuse(`grew past the ${MAX_INPUT_BYTES} bytes an input may have while it was read`);
      }
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw error instanceof UsageError ? error : failed(error);
  } finally {
    closeSync(fd);
  }
}

/** The input file `path` as UTF-8 text (see readInputBytes). */
function readInputText(path: string, name: string, allowed: string): string {
  return readInputBytes(path, name, allowed).toString('utf8');
}

/**
 * The input file `path` parsed as JSON, strictly (see parseJsonInput: no
 * key twice, no prototype keys, bounded nesting); anything else is one
 * line naming the file and where in it the problem is.
 */
export function readInputJson(path: string, name: string, allowed: string): unknown {
  const text = readInputText(path, name, allowed);
  try {
    return parseJsonInput(text);
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    const why = `is not JSON as muster writes it (${error.message})`;
    throw new UsageError(`${name}: ${JSON.stringify(path)} ${why}; allowed: ${allowed}`);
  }
}

/**
 * The file-system errors a user can cause by where they point an output or
 * what they name (a full disk, a read-only folder, a missing file), in words,
 * as one-line UsageErrors: what files.ts and the CLI's last catch say.
 */
import { UsageError } from '../errors.js';

/** Words for the errors a user can cause by where they point an output. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such file or folder',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'a file appeared there while writing',
  EMFILE: 'too many open files',
  EFBIG: 'the file is too large',
  EIO: 'input/output error',
};

/** The words for a file-system error code a user can cause (ENOSPC: "no space left on the device"), or undefined. */
export function faultReason(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(REASONS, code) ? REASONS[code] : undefined;
}

/**
 * A file-system error a user can cause (a full disk, a read-only folder), as a UsageError naming the option and path;
 * anything else unchanged.
 */
export function fileError(option: string, path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code])
    return new UsageError(
      `${option}: cannot write ${path} (${REASONS[code]}); allowed: a file in a folder you can write, on a disk ` +
        `with room`,
    );
  return error;
}

/**
 * A file-system error that escaped a command (reading a file named on the
 * command line, say) as one line naming the path, or null when it is not
 * one a user can cause.
 */
export function fsFault(error: unknown): UsageError | null {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (!code || !REASONS[code] || !path) return null;
  return new UsageError(`${path}: ${REASONS[code]} (${syscall ?? 'access'}); allowed: a path you can read and write`);
}

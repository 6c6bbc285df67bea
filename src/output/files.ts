/**
 * Every file muster writes goes through here, for the CLI and for reports/
 * alike. The contract (docs/errors.md):
 *
 *   check every path up front ─► compute ─► stage every file ─► rename all ─► standard output
 *
 * - Paths are checked before any work: the folder exists and can be written,
 *   an existing target is a regular file (never a device, a folder or a
 *   dangling link) that its owner lets muster write (a read-only file is
 *   refused, never replaced, even where the folder would let a rename
 *   replace it or the user is root), a name is a file's (a trailing `/`, `.`
 *   or `..` names a folder), and no two outputs (or an output and an input)
 *   are the same file, however they are spelled or linked. Files named only
 *   later (--svg's) get the same checks before anything is staged.
 * - One command's files are written all or none: each is staged as a
 *   temporary file beside its target (a random name, opened exclusively, so
 *   a link planted there is never followed), and only when every one is on
 *   disk are they renamed into place. A failure removes every temporary file
 *   and leaves the old files as they were: each target's old contents are
 *   kept under a second name (a hard link) until every rename has succeeded,
 *   so a rename that fails (a target that turned into a folder since it was
 *   checked) puts back the files renamed before it.
 * - Replacing a file keeps its mode; writing to a symlink replaces the file
 *   it points to and keeps the link.
 * - `-` (where allowed) is standard output, written after the files.
 *
 * write-file-atomic does the single-file half of this, but it renames each
 * file as soon as it is written (so a failure on the third file of a command
 * leaves the first two replaced), and it opens its temporary file without
 * O_EXCL under a name derived from the pid and a counter. Staging needs the
 * open and the rename apart, so the few system calls are made here.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { fileError } from './file-faults.js';

export { faultReason, fsFault } from './file-faults.js';

/** A name whose last part is empty, `.` or `..`: a folder's (separators: `/`, and `\` on Windows). */
const SEPARATOR = process.platform === 'win32' ? '[/\\\\]' : '/';
const FOLDER_NAME = new RegExp(`(?:^|${SEPARATOR})\\.{0,2}$`);
const FOLDER_TAIL = new RegExp(`(?:${SEPARATOR}\\.{0,2})+$`);

/** The path that means standard output. */
export const STDOUT = '-';

export interface OutputFile {
  /** Where to write: a checked path (see checkOutputFile), or `-` for standard output. */
  path: string;
  /** Text (written as UTF-8), or bytes as they are (a PDF). */
  contents: string | Uint8Array;
  /** The option that named the file, for error messages. */
  option?: string;
}

/** Whether a folder can take new files (a temporary file and a rename need write and search permission). */
/**
 * An existing file muster may not write is left as it is: one whose mode gives no one write permission (0444), or
 * that this user may not write. Replacing it by a rename would succeed wherever the folder is writable, and root may
 * write anything; neither is the file's owner saying yes.
 */
function refuseReadOnly(option: string, path: string, mode: number): void {
  let writable = (mode & 0o222) !== 0;
  if (writable) {
    try {
      accessSync(path, constants.W_OK);
    } catch {
      writable = false;
    }
  }
  if (!writable)
    throw new UsageError(
      `${option}: ${path} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); allowed: a file you ` +
        `may write (chmod u+w it to let muster replace it), or another name`,
    );
}

/** A file name near a folder's (`foo.html/` ─► `foo.html`, `out/` ─► `out/out.json`), for the example in a refusal. */
function fileNameLike(name: string, option: string): string {
  const match = /^--(json|html|csv|pdf)$/.exec(option);
  const extension = match ? match[1] : option === '--out' ? 'html' : 'json';
  const stripped = name.replace(FOLDER_TAIL, '').replace(/^\.{1,2}$/, '');
  if (/\.[A-Za-z]+$/.test(stripped)) return stripped;
  return stripped === '' ? `out.${extension}` : `${stripped}/out.${extension}`;
}

function writableFolder(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file a path ends up writing: links followed; the path itself where nothing exists yet. */
function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * An output file, checked before any work starts: `-` for standard output
 * where `stdout` allows it; otherwise a new or existing regular file in an
 * existing folder that can be written. Returns the absolute path (or `-`).
 */
export function checkOutputFile(option: string, file: string, { stdout = false }: { stdout?: boolean } = {}): string {
  if (file === STDOUT) {
    if (stdout) return STDOUT;
    throw new UsageError(`${option}: got "-"; allowed: a file name (standard output is for --json and --csv)`);
  }
  if (file.trim() === '')
    throw new UsageError(`${option}: got ""; allowed: a file name${stdout ? ', or - for standard output' : ''}`);
  // resolve() drops a trailing slash (foo.html/ would write foo.html): a name that ends as a folder's is refused.
  if (FOLDER_NAME.test(file))
    throw new UsageError(
      `${option}: ${JSON.stringify(file)} ends as a folder's name does (/, . or ..); allowed: a file name, such as ` +
        `${JSON.stringify(fileNameLike(file, option))}`,
    );
  const path = resolve(file);
  let link: ReturnType<typeof lstatSync> | undefined;
  try {
    link = lstatSync(path);
  } catch {
    link = undefined;
  }
  if (link) {
    let target: ReturnType<typeof statSync>;
    try {
      target = statSync(path);
    } catch {
      throw new UsageError(
        `${option}: ${path} is a link to nothing (dangling symlink); allowed: a new file, a regular file, or a ` +
          `link to one`,
      );
    }
    // A rename would replace a device such as /dev/null or /dev/stdout with a regular file: only regular files may be
    // overwritten.
    if (!target.isFile()) {
      const what = target.isDirectory()
        ? 'not a regular file (a folder)'
        : 'not a regular file (a device, pipe or socket)';
      throw new UsageError(
        `${option}: ${path} is ${what}; allowed: a new or existing regular ` +
          `file${stdout ? ', or - for standard output' : ''}`,
      );
    }
    refuseReadOnly(option, path, target.mode);
  }
  const folder = dirname(realTarget(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`${option}: folder ${folder} does not exist; allowed: a file in an existing folder`);
  if (!writableFolder(folder))
    throw new UsageError(
      `${option}: cannot write in folder ${folder} (permission denied); allowed: a file in a folder you can write`,
    );
  return path;
}

/**
 * An output folder: an existing folder that can be written, or a new one in such a folder (made when the files are
 * written).
 */
export function checkOutputDir(option: string, dir: string): string {
  if (dir.trim() === '')
    throw new UsageError(`${option}: got ""; allowed: a folder, existing or new in an existing folder`);
  const path = resolve(dir);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory())
      throw new UsageError(`${option}: ${path} is a file; allowed: a folder, existing or new in an existing folder`);
    if (!writableFolder(path))
      throw new UsageError(
        `${option}: cannot write in folder ${path} (permission denied); allowed: a folder you can write`,
      );
    return path;
  }
  const parent = dirname(path);
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    throw new UsageError(
      `${option}: folder ${parent} does not exist; allowed: a folder, existing or new in an existing folder`,
    );
  if (!writableFolder(parent))
    throw new UsageError(
      `${option}: cannot make a folder in ${parent} (permission denied); allowed: a folder you can write`,
    );
  return path;
}

/** What identifies a file however it is reached: its device and inode when it exists, else its real path. */
function identity(path: string): string {
  try {
    const stat = statSync(path);
    return `inode ${stat.dev}:${stat.ino}`;
  } catch {
    return `path ${realTarget(path)}`;
  }
}

/** An input an output must never replace: `files` (shards), `rule` (a rule file), as checkDistinct takes them. */
export interface InputFile {
  name: string;
  path: string;
}

/**
 * The rule files among `rules` (a command's rule, a comparison's variants), each once: inputs no output may
 * replace (`muster run my-rule.mjs --json my-rule.mjs`).
 */
export function ruleFileInputs(rules: ReadonlyArray<Rule | undefined>): InputFile[] {
  // One file named twice (two variants of one rule file, or a link to it) is one input.
  const files = new Map<string, string>();
  for (const rule of rules) {
    if (rule?.file && !files.has(identity(rule.file.path))) files.set(identity(rule.file.path), rule.file.path);
  }
  return [...files.values()].map((path) => ({ name: 'rule', path }));
}

/**
 * Refuses two names for one file among a command's outputs (and its inputs,
 * which an output must never replace): `--json x --html x`, a link and its
 * target, `merge a.json --json a.json`. Standard output may appear once.
 */
export function checkDistinct(
  outputs: ReadonlyArray<{ option: string; path: string | undefined }>,
  inputs: readonly InputFile[] = [],
): void {
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const key = identity(resolve(input.path));
    const earlier = seen.get(key);
    if (earlier)
      throw new UsageError(
        `${input.name}: ${JSON.stringify(input.path)} is the same file as ${earlier}; allowed: each input once`,
      );
    seen.set(key, `input ${JSON.stringify(input.path)}`);
  }
  for (const { option, path } of outputs) {
    if (path === undefined) continue;
    const key = path === STDOUT ? 'stdout' : identity(path);
    const earlier = seen.get(key);
    if (earlier) {
      const shown = path === STDOUT ? 'standard output (-)' : JSON.stringify(path);
      throw new UsageError(
        `${option}: ${shown} is the same file as ${earlier}; allowed: a different file for every output, never an ` +
          `input`,
      );
    }
    seen.set(key, `${option} ${path}`);
  }
}

interface Staged {
  temporary: string;
  target: string;
  file: OutputFile;
  /** A second name for what the target held (a hard link, or a copy), put back if a later rename fails. */
  backup?: string;
  /** Whether the temporary file has been renamed onto the target. */
  placed?: boolean;
}

/**
 * A random name beside `target` for a temporary or kept-old file: hidden, and unpredictable, so nothing is planted
 * there.
 */
function besideName(target: string, kind: 'tmp' | 'old'): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(9).toString('hex')}.${kind}`);
}

/** Writes `contents` to a new temporary file beside `item.target`; the target keeps its mode. */
function stage(item: Staged, contents: string | Uint8Array): void {
  let mode: number | undefined;
  try {
    mode = statSync(item.target).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  // 'wx' is O_CREAT|O_EXCL: fails rather than follow anything already at that name.
  const descriptor = openSync(item.temporary, 'wx', mode === undefined ? 0o666 : 0o600);
  try {
    try {
      const bytes = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents;
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(descriptor, bytes, offset);
      if (mode !== undefined) fchmodSync(descriptor, mode);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    // A full disk mid-write: the half-written temporary file is this call's to remove (it is not staged yet).
    removeQuietly(item.temporary);
    throw error;
  }
}

/**
 * Keeps what a target holds now under a second name, so a failed rename of
 * a later file can put it back: a hard link (no copy, the same inode), or a
 * copy where the file system has no hard links. Nothing when there is no
 * file there (a new output).
 */
function keepOld(item: Staged): void {
  let existing: ReturnType<typeof lstatSync>;
  try {
    existing = lstatSync(item.target);
  } catch {
    return;
  }
  if (!existing.isFile()) return;
  const backup = besideName(item.target, 'old');
  try {
    linkSync(item.target, backup);
  } catch {
    copyFileSync(item.target, backup, constants.COPYFILE_EXCL);
  }
  item.backup = backup;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** A target that is no longer a regular file or free (it turned into a folder or a device since it was checked). */
function recheck(file: OutputFile, target: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(target);
  } catch {
    return;
  }
  if (stat.isFile()) {
    refuseReadOnly(file.option ?? 'output', file.path, stat.mode);
    return;
  }
  const what = stat.isDirectory() ? 'a folder' : 'a device, pipe or socket';
  const option = file.option ?? 'output';
  throw new UsageError(
    `${option}: ${file.path} became ${what} after it was checked; allowed: a new or existing regular file`,
  );
}

/** Test seam: runs once every file is staged and before the first rename, where a target can change under muster. */
interface WriteHooks {
  afterStaging?: () => void;
}

/**
 * Writes every file of one command, or none: missing folders are made,
 * every file is staged beside its target, what each target held is kept
 * under a second name, then all are renamed into place, then `-` goes to
 * `stdout`. If a rename fails (a target turned into a folder since it was
 * checked, say), the files already renamed are put back as they were (or
 * removed, where they are new); every temporary file, every kept old file
 * and every folder made is removed; and a UsageError names the option and
 * path of a user-caused fault (EACCES, ENOSPC, …). Writes are synchronous,
 * so a signal handler (Ctrl-C) cannot run between the stage and the rename.
 */
export function writeOutputs(
  files: readonly OutputFile[],
  stdout: (text: string) => void = (text) => process.stdout.write(text),
  hooks: WriteHooks = {},
): void {
  // The last guard against two names for one file (checkDistinct runs before the work; this catches paths made since,
  // such as --svg's files).
  const targets = new Map<string, OutputFile>();
  for (const file of files) {
    if (file.path === STDOUT) continue;
    const key = identity(file.path);
    const earlier = targets.get(key);
    if (earlier)
      throw new UsageError(
        `${file.option ?? 'output'}: ${file.path} is the same file as ${earlier.option ?? 'output'} ` +
          `${earlier.path}; allowed: a different file for every output`,
      );
    targets.set(key, file);
  }
  const staged: Staged[] = [];
  const madeFolders: string[] = [];
  let current: OutputFile | undefined;
  try {
    for (const file of files) {
      if (file.path === STDOUT) continue;
      current = file;
      const target = realTarget(file.path);
      recheck(file, target);
      const folder = dirname(target);
      if (!existsSync(folder)) {
        const made = mkdirSync(folder, { recursive: true });
        if (made) madeFolders.push(made);
      }
      const item: Staged = { temporary: besideName(target, 'tmp'), target, file };
      stage(item, file.contents);
      staged.push(item);
    }
    hooks.afterStaging?.();
    for (const item of staged) {
      current = item.file;
      keepOld(item);
    }
    for (const item of staged) {
      current = item.file;
      renameSync(item.temporary, item.target);
      item.placed = true;
    }
  } catch (error) {
    rollBack(staged, madeFolders);
    throw current ? fileError(current.option ?? 'output', current.path, error) : error;
  }
  for (const item of staged) if (item.backup) removeQuietly(item.backup);
  for (const file of files)
    if (file.path === STDOUT)
      stdout(typeof file.contents === 'string' ? file.contents : Buffer.from(file.contents).toString('utf8'));
}

/** Puts every target back as it was before writeOutputs: old contents restored, new files and temporaries removed. */
function rollBack(staged: readonly Staged[], madeFolders: string[]): void {
  for (const item of staged) {
    if (!item.placed) {
      removeQuietly(item.temporary);
      // The target still holds its old contents: the second name is not needed.
      if (item.backup) removeQuietly(item.backup);
    } else if (item.backup) {
      try {
        renameSync(item.backup, item.target);
      } catch {
        // The old contents stay under the backup name rather than be lost.
      }
    } else {
      removeQuietly(item.target);
    }
  }
  for (const folder of madeFolders.reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      // not empty (another file landed there) or already gone: leave it
    }
  }
}

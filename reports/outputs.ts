/**
 * Report files are built in memory first and written only once everything
 * has been computed and rendered, each atomically (write, then rename), so
 * a failure leaves no half-written or partial set of files behind.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../src/cli/write-file.js';
import { UsageError } from '../src/errors.js';

export interface OutputFile {
  path: string;
  contents: string;
}

/** An output folder: an existing folder, or a new one in an existing folder (made when the files are written). */
export function checkOutputDir(option: string, dir: string): string {
  const path = resolve(dir);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw new UsageError(`${option}: ${path} is a file; allowed: a folder, existing or new in an existing folder`);
    return path;
  }
  const parent = dirname(path);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) throw new UsageError(`${option}: folder ${parent} does not exist; allowed: a folder, existing or new in an existing folder`);
  return path;
}

/** Writes every file, making missing folders first. */
export function writeOutputs(files: readonly OutputFile[]): void {
  for (const folder of new Set(files.map((file) => dirname(file.path)))) mkdirSync(folder, { recursive: true });
  for (const file of files) writeFileAtomic(file.path, file.contents);
}

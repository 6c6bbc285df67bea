import { renameSync, rmSync, writeFileSync } from 'node:fs';

/** Writes through a temporary file and a rename, so a reader never sees a half-written file. */
export function writeFileAtomic(path: string, contents: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, contents);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

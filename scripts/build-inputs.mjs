// What dist/ is built from, as one sha256: every file tsc compiles (src/, workers/, reports/, scripts/), the
// configuration it reads (tsconfig.json, package.json), and the versions of the compilers installed
// (package-lock.json). scripts/build.mjs writes it into dist/ beside a finished build and compares it to skip a
// build that would give the same files.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The file in dist/ that holds the hash of the inputs it was built from. */
export const BUILD_STAMP = '.build-inputs';

const FOLDERS = ['src', 'workers', 'reports', 'scripts'];
const FILES = ['tsconfig.json', 'package.json', 'package-lock.json'];

/** The sha256 (hex) of the build's inputs under `root`: each file's path and contents, in sorted order. */
export function buildInputsHash(folder) {
  const root = resolve(folder);
  const paths = [...FILES];
  for (const folder of FOLDERS) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) paths.push(join(entry.parentPath ?? entry.path, entry.name).slice(root.length + 1));
    }
  }
  const hash = createHash('sha256');
  for (const path of paths.map((p) => p.split('\\').join('/')).sort()) {
    let contents;
    try {
      contents = readFileSync(join(root, path));
    } catch {
      contents = Buffer.from('(absent)');
    }
    hash.update(`${path}\0${contents.length}\0`);
    hash.update(contents);
  }
  return hash.digest('hex');
}

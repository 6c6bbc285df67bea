import { readFileSync } from 'node:fs';

/** The package's name on the registry; the command it installs is `muster`. */
export const PACKAGE_NAME = 'muster-odds';

let cached: string | undefined;

/** The package's version, read once from the package.json two folders up from here (src/ or dist/src/). */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  cached = 'unknown';
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === PACKAGE_NAME && pkg.version) {
        cached = pkg.version;
        break;
      }
    } catch {
      // not this folder; try the next
    }
  }
  return cached;
}

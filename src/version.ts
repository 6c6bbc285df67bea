/** The package's name on the registry; the command it installs is `muster`. */
export const PACKAGE_NAME = 'muster-odds';

/**
 * The package's version, package.json's "version" written out (test/analysis/library-bundle.test.ts holds the
 * two equal):
 * a constant rather than package.json read from disk, so that the library's browser entry, and any bundle, needs
 * no file system.
 */
export const PACKAGE_VERSION = '0.1.0';

export function packageVersion(): string {
  return PACKAGE_VERSION;
}

/**
 * Every file of this repository that the docs or a comment names exists. Files move (a test renamed, a bench
 * merged into another, a module split), and a comment or page that still names the old path sends a reader to
 * nothing. Checked: paths from the repository's root (`src/…`, `test/…`, `reports/…`, `scripts/…`, `workers/…`,
 * `docs/…`, `examples/…`, with an extension) anywhere in Markdown, Python and shell files and in the comments of
 * TypeScript and JavaScript files, and TypeScript modules named from the commenting file's own folder (a path
 * starting with a dot and a slash, or two dots and a slash) in those comments. A `.js` path also matches its `.ts` source, as comments name modules the way imports do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * References the refactor of issue 23 is to fix in files outside the docs (`file: path`). Listed so the check can
 * run now; each entry must still be stale, so a fixed one fails here until it is taken off the list.
 */
const KNOWN_STALE = new Set<string>([]);

const ROOTED =
  /(?<![\w./-])(?:src|test|reports|scripts|workers|docs|examples)\/[\w./-]*\.(?:ts|mts|mjs|js|py|sh|md|json)\b/g;
const RELATIVE_TS = /(?<![\w./-])\.\.?\/[\w./-]*\.ts\b/g;
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

function tracked(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(?:md|py|sh|ts|mts|mjs|js)$/.test(file) && !file.startsWith('test/golden/'));
}

/** Each path a file names that leads nowhere, as `file: path`. */
function staleIn(file: string, text: string): string[] {
  const code = /\.(?:ts|mts|mjs|js)$/.test(file);
  const lines = code ? text.split('\n').filter((line) => COMMENT.test(line)) : text.split('\n');
  const found: string[] = [];
  const leads = (path: string): boolean =>
    existsSync(path) || (path.endsWith('.js') && existsSync(`${path.slice(0, -3)}.ts`));
  for (const line of lines) {
    for (const [path] of line.matchAll(ROOTED)) if (!leads(join(root, path))) found.push(`${file}: ${path}`);
    if (code)
      for (const [path] of line.matchAll(RELATIVE_TS))
        if (!leads(join(root, dirname(file), path))) found.push(`${file}: ${path}`);
  }
  return found;
}

describe('the checker', () => {
  it(
    'finds a missing rooted path, a missing relative module in a comment, and nothing in code or at a real ' + 'path',
    () => {
      const text = [
        '/**',
        ' * Built by test/no-such-file.test.ts; see ./no-such-module.ts and ../theme.ts, and src/rules/infinity/infinity.ts.',
        ' */',
        "const notAComment = 'test/also-missing.test.ts';",
      ].join('\n');
      expect(staleIn('reports/charts/x.ts', text)).toEqual([
        'reports/charts/x.ts: test/no-such-file.test.ts',
        'reports/charts/x.ts: ./no-such-module.ts',
      ]);
    },
  );

  it('reads a page whole, code blocks included, and a .js path as its .ts source', () => {
    const page =
      'Run `node dist/scripts/x.js`.\n\n```sh\npython3 scripts/bench/gone.py\n```\nSee src/engine/chunks.js.\n';
    expect(staleIn('docs/x.md', page)).toEqual(['docs/x.md: scripts/bench/gone.py']);
  });
});

describe('no reference to a file that does not exist', () => {
  const stale = tracked().flatMap((file) => staleIn(file, readFileSync(join(root, file), 'utf8')));

  it('in the docs, and in comments outside them but for the known ones', () => {
    expect(stale.filter((entry) => !KNOWN_STALE.has(entry))).toEqual([]);
  });

  it('every known stale reference is still stale (take a fixed one off the list)', () => {
    expect([...KNOWN_STALE].filter((entry) => !stale.includes(entry))).toEqual([]);
  });
});

/**
 * Every relative link in the README and in docs/ leads somewhere: the file (or folder) exists, and a `#fragment`
 * names a heading of the page it points to, spelled as GitHub spells heading anchors. The README's detail moved
 * into docs/ pages, so a link to an old README section (`#bad-input`) or to a file that no longer exists fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every Markdown page under docs/, as paths from the repository's root. */
function pages(): string[] {
  const found = ['README.md'];
  const walk = (folder: string): void => {
    for (const name of readdirSync(join(root, folder)).sort()) {
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The page without its fenced code blocks, where `](` and `# ` are shell or output, not Markdown. */
const prose = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text lowercased, every character that is not a
 * letter, digit, mark, space, `-` or `_` dropped, each space a hyphen; a repeated heading gets `-1`, `-2`, ….
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const rendered = text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = rendered
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Each relative link of a page that does not lead anywhere, as `target: why`. */
function brokenLinks(
  page: string,
  markdown: string,
  exists: (path: string) => boolean = existsSync,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not a file of this repository
    const [path, fragment] = target.split('#', 2);
    const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURI(path));
    if (!relative(root, file) || relative(root, file).startsWith('..'))
      broken.push(`${target}: outside the repository`);
    else if (!exists(file)) broken.push(`${target}: no such file`);
    else if (fragment !== undefined && file.endsWith('.md')) {
      if (!headingAnchors(read(file)).has(fragment)) broken.push(`${target}: no heading #${fragment}`);
    }
  }
  return broken;
}

describe('GitHub heading anchors, as GitHub spells them', () => {
  // Hand-worked from github-slugger's rule (and checked against the anchors GitHub shows for these headings).
  it('drops punctuation, keeps hyphens and digits, turns each space into a hyphen', () => {
    const anchors = headingAnchors(
      [
        '## Which reserve round with command 3? (a sweep)',
        '## The printable WIP × WIP table',
        '## Options of `run`',
        '## Forward from zone 1 or a standard 1-2-3?',
        '## Scale (the last pasted run)',
        '## Ctrl-C',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'which-reserve-round-with-command-3-a-sweep',
      'the-printable-wip--wip-table',
      'options-of-run',
      'forward-from-zone-1-or-a-standard-1-2-3',
      'scale-the-last-pasted-run',
      'ctrl-c',
    ]);
  });

  it('numbers a repeated heading, and ignores `#` lines inside code blocks', () => {
    const anchors = headingAnchors('## Slurm\n\n```sh\n# in an sbatch script\n```\n\n## Slurm\n');
    expect([...anchors]).toEqual(['slurm', 'slurm-1']);
  });
});

describe('the checker finds what is broken', () => {
  const files = new Map([
    [join(root, 'docs/a.md'), '# A page\n\n## Bad input\n'],
    [join(root, 'docs/b.png'), ''],
  ]);
  const exists = (path: string): boolean => files.has(path);
  const read = (path: string): string => files.get(path) ?? '';

  it('a missing file, a missing heading, a link out of the repository; not a good link nor a web address', () => {
    const page = [
      '[good](a.md#bad-input) ![img](b.png) [web](https://example.org/x.md#nope) [self](#a-page)',
      '[gone](reports-charts.md) [moved](a.md#options-of-run) [out](../../etc/passwd)',
      '```',
      '[in code](nothing.md)',
      '```',
    ].join('\n');
    expect(brokenLinks('docs/a.md', page, exists, read)).toEqual([
      'reports-charts.md: no such file',
      'a.md#options-of-run: no heading #options-of-run',
      '../../etc/passwd: outside the repository',
    ]);
  });
});

describe('README.md and docs/', () => {
  for (const page of pages()) {
    it(`${page}: every relative link leads to a file, and every #fragment to a heading`, () => {
      expect(brokenLinks(page, readFileSync(join(root, page), 'utf8'))).toEqual([]);
    });
  }
});

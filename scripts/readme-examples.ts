/**
 * `npm run readme`: re-runs every `$ muster …` example in the README and in the docs pages that show the commands'
 * output, and writes its real output back under it, so no page shows numbers the program no longer prints. Only
 * blocks whose first line is a `$ muster` command are touched; the rest of each page is left as it is.
 * `npm run readme -- docs/commands.md …` re-runs only the pages named.
 *
 * docs/custom-rules.md is a walk-through: its examples run the files in examples/rules (from that folder), and
 * show only the lines each step is about (`…` for the rest), so they are re-run and compared rather than
 * rewritten: every line a block shows must be in what the command prints today, but for its timings and the
 * file's path on the writer's machine. A block that shows a step of the walk-through the example file has gone
 * past says so in an HTML comment just above it (`<!-- readme: not re-run: why -->`), and is listed as such.
 * A block that differs is named, and the exit status is 1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = `${root}dist/cli.js`;

/** The pages whose examples are kept current, from the repository's root. */
const PAGES = ['README.md', 'docs/commands.md', 'docs/errors.md', 'docs/custom-rules.md'];
/** Pages whose examples are re-run and compared, never rewritten: the folder they run in. */
const COMPARED = new Map([['docs/custom-rules.md', `${root}examples/rules`]]);

/** Splits a shell command line into words, honouring double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
}

function rerun(command: string, cwd = root): string {
  try {
    // --quiet keeps "wrote FILE" and progress off the page; describe and check print nothing else and take no --quiet.
    const quiet = /^(describe|check|list)\b/.test(command) ? [] : ['--quiet'];
    return execFileSync(process.execPath, [cli, ...words(command), ...quiet], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Examples of bad input exit 2 and print to stderr: show what the user sees.
    const failed = error as { stderr?: string };
    return failed.stderr ?? '';
  }
}

const pages = process.argv.length > 2 ? process.argv.slice(2) : PAGES;
const absent = pages.filter((page) => !existsSync(`${root}${page}`));
if (absent.length > 0) {
  process.stderr.write(
    `readme: page: got ${absent.join(', ')}; allowed: pages from the repository's root, such as ${PAGES.join(', ')}\n`,
  );
  process.exit(2);
}
/** What a shown line may differ in from today's: a time, and the path of the file on the writer's machine. */
const VARIES = /\d+(\.\d+)? s$|^rule file: /;

/** Re-runs a walk-through page's examples and compares each with what it shows; true when every one matches. */
function comparePage(page: string, cwd: string): boolean {
  const text = readFileSync(`${root}${page}`, 'utf8');
  let current = true;
  for (const match of text.matchAll(
    /(<!-- readme: not re-run: ([^>]*) -->\n)?```\n\$ muster ([^\n]*)\n([\s\S]*?)```/g,
  )) {
    const [, , skipped, command, shown] = match;
    if (skipped !== undefined) {
      process.stdout.write(`${page}: muster ${command}: not re-run (${skipped.trim()})\n`);
      continue;
    }
    // A block may show two commands (a second "$ muster" line): each is re-run, its own lines compared.
    const parts = `$ muster ${command}\n${shown}`.split(/^\$ muster /m).filter((part) => part !== '');
    for (const part of parts) {
      const [line, ...lines] = part.split('\n');
      const printed = rerun(line, cwd)
        .split('\n')
        .map((l) => l.trimEnd());
      const missing = lines.find(
        (l) => l.trim() !== '' && l.trim() !== '…' && !VARIES.test(l) && !printed.includes(l.trimEnd()),
      );
      if (missing !== undefined) {
        current = false;
        process.stdout.write(`${page}: muster ${line}: differs; it no longer prints: ${missing}\n`);
      }
    }
  }
  process.stdout.write(`${page}: ${current ? 'examples current (compared)' : 'examples differ (see above)'}\n`);
  return current;
}

for (const page of pages) {
  const path = `${root}${page}`;
  const folder = COMPARED.get(page);
  if (folder !== undefined) {
    if (!comparePage(page, folder)) process.exitCode = 1;
    continue;
  }
  const text = readFileSync(path, 'utf8');
  const updated = text.replace(/```\n\$ muster ([^\n]*)\n[\s\S]*?```/g, (_block, command: string) => {
    return `\`\`\`\n$ muster ${command}\n${rerun(command).trimEnd()}\n\`\`\``;
  });
  writeFileSync(path, updated);
  process.stdout.write(`${page}: ${updated === text ? 'examples already current' : 'examples updated'}\n`);
}

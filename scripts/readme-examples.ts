/**
 * `npm run readme`: re-runs every `$ muster …` example in the README and in the docs pages that show the commands'
 * output, and writes its real output back under it, so no page shows numbers the program no longer prints. Only
 * blocks whose first line is a `$ muster` command are touched; the rest of each page is left as it is.
 * `npm run readme -- docs/commands.md …` re-runs only the pages named.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = `${root}dist/cli.js`;

/** The pages whose examples are kept current, from the repository's root. */
const PAGES = ['README.md', 'docs/commands.md', 'docs/errors.md'];

/** Splits a shell command line into words, honouring double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
}

function rerun(command: string): string {
  try {
    return execFileSync(process.execPath, [cli, ...words(command), '--quiet'], {
      cwd: root,
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
for (const page of pages) {
  const path = `${root}${page}`;
  const text = readFileSync(path, 'utf8');
  const updated = text.replace(/```\n\$ muster ([^\n]*)\n[\s\S]*?```/g, (_block, command: string) => {
    return `\`\`\`\n$ muster ${command}\n${rerun(command).trimEnd()}\n\`\`\``;
  });
  writeFileSync(path, updated);
  process.stdout.write(`${page}: ${updated === text ? 'examples already current' : 'examples updated'}\n`);
}

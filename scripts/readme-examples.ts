/**
 * `npm run readme`: re-runs every `$ muster …` example in README.md and
 * writes its real output back under it, so the front door never shows
 * numbers the program no longer prints. Only blocks whose first line is a
 * `$ muster` command are touched; the rest of the file is left as it is.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = `${root}dist/cli.js`;
const readmePath = `${root}README.md`;

/** Splits a shell command line into words, honouring double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
}

const readme = readFileSync(readmePath, 'utf8');
const updated = readme.replace(/```\n\$ muster ([^\n]*)\n[\s\S]*?```/g, (_block, command: string) => {
  let output: string;
  try {
    output = execFileSync(process.execPath, [cli, ...words(command), '--quiet'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Examples of bad input exit 2 and print to stderr: show what the user sees.
    const failed = error as { stderr?: string };
    output = failed.stderr ?? '';
  }
  return `\`\`\`\n$ muster ${command}\n${output.trimEnd()}\n\`\`\``;
});
writeFileSync(readmePath, updated);
process.stdout.write(updated === readme ? 'README examples already current\n' : 'README examples updated\n');

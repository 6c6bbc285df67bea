// `npm run build` and `npm run prepare`: compiles the package into dist/ without ever leaving it empty or half
// written. tsc and write-entry.mjs build into a folder beside it (dist.building-<pid>), and only a finished build
// takes dist/'s place, by two renames a few microseconds apart; a build that fails leaves the old dist/ as it
// was. dist/.build-inputs holds the sha256 of everything the build reads (build-inputs.mjs), so
// `--if-stale` (what `prepare` runs, and npm runs `prepare` again on `npx .`) returns at once when dist/ was
// built from the sources as they are.
//
//   node scripts/build.mjs [--if-stale] [--check] [--dist DIR] [--tsconfig FILE]
//
// --check prints whether DIR is current and exits 0 (current) or 3 (stale), building nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_STAMP, buildInputsHash } from './build-inputs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const FLAGS = ['--if-stale', '--check', '--dist', '--tsconfig'];

function optionValue(flag, fallback) {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) fail(`${flag}: missing; allowed: ${flag} PATH`);
  return value;
}

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(2);
}

for (let k = 0; k < args.length; k++) {
  if (!FLAGS.includes(args[k])) fail(`got "${args[k]}"; allowed: ${FLAGS.join(', ')}`);
  if (args[k] === '--dist' || args[k] === '--tsconfig') k++;
}
const dist = resolve(root, optionValue('--dist', 'dist'));
const tsconfig = resolve(root, optionValue('--tsconfig', 'tsconfig.json'));
const inputs = buildInputsHash(root);

/** Whether `folder` is a whole build of the sources as they are now. */
function current(folder) {
  const stamp = join(folder, BUILD_STAMP);
  return existsSync(join(folder, 'cli.js')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputs;
}

if (args.includes('--check')) {
  const fresh = current(dist);
  process.stdout.write(`${basename(dist)}: ${fresh ? 'current' : 'stale'}\n`);
  process.exit(fresh ? 0 : 3);
}
if (args.includes('--if-stale') && current(dist)) {
  process.stderr.write(
    `${basename(dist)}/ is current (built from the sources as they are); npm run build rebuilds it\n`,
  );
  process.exit(0);
}

const building = `${dist}.building-${process.pid}`;
const retired = `${dist}.retired-${process.pid}`;
rmSync(building, { recursive: true, force: true });
function step(command, commandArgs) {
  const done = spawnSync(process.execPath, [command, ...commandArgs], { cwd: root, stdio: 'inherit' });
  if (done.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    process.stderr.write(`build: failed; ${basename(dist)}/ is left as it was\n`);
    process.exit(done.status ?? 1);
  }
}
step(join(root, 'node_modules/typescript/bin/tsc'), ['-p', tsconfig, '--outDir', building]);
step(join(root, 'scripts/write-entry.mjs'), [building]);
writeFileSync(join(building, BUILD_STAMP), `${inputs}\n`);
// The old build moves aside before the new one takes its name: dist/ is missing only between two renames.
const hadOld = existsSync(dist);
if (hadOld) renameSync(dist, retired);
renameSync(building, dist);
if (hadOld) rmSync(retired, { recursive: true, force: true });

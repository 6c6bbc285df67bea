// tsc mirrors the source tree into dist/ (dist/src/cli.js, dist/workers/…); this writes the dist/cli.js entry
// that the design's contract names (from the process entry, src/cli/bin.ts), and the rule thread's
// (dist/bundle/rule-thread.js), each bundled by esbuild from tsc's output with the modules they import, the
// packages left out. Node then resolves and reads a few files at start-up instead of a hundred, on the main thread and again on the rule thread: a command is a
// whole process, and finding each module's file was much of its start-up. A module imported with import()
// stays a chunk of its own (dist/bundle/), loaded only by the commands that use it, as before.
// `node scripts/write-entry.mjs [DIR]`: DIR is tsc's output (dist/ unless told; build.mjs names its own folder).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const dist = resolve(process.argv[2] ?? 'dist');

// A module finds files beside it from its import.meta.url (the pool its worker, the version its package.json):
// each keeps the URL of its own file in dist/, rewritten once the bundle says which output it landed in.
const META = /"__muster_meta_url__:([^"]+)"/g;
const keepOwnUrl = {
  name: 'keep-own-url',
  setup(bundler) {
    bundler.onLoad({ filter: /\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const own = relative(dist, args.path).split('\\').join('/');
      const text = (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', `"__muster_meta_url__:${own}"`);
      return { contents: text, loader: 'js' };
    });
  },
};

const { outputFiles } = await build({
  entryPoints: [
    { in: join(dist, 'src/cli/bin.js'), out: 'cli' },
    { in: join(dist, 'src/cli/command-thread.js'), out: 'bundle/rule-thread' },
  ],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir: dist,
  chunkNames: 'bundle/[name]-[hash]',
  plugins: [keepOwnUrl],
  write: false,
  logLevel: 'warning',
});
for (const file of outputFiles) {
  const from = dirname(file.path);
  const text = file.text.replace(META, (_, own) => {
    const path = relative(from, join(dist, own)).split('\\').join('/');
    return `new URL(${JSON.stringify(path.startsWith('.') ? path : `./${path}`)}, import.meta.url).href`;
  });
  mkdirSync(from, { recursive: true });
  writeFileSync(file.path, text);
}
chmodSync(join(dist, 'cli.js'), 0o755);

// The pool's worker as piscina loads it. piscina require()s a worker file before it tries import(), and Node 20's
// require() of an ES module (on by default since 20.19) has aborted a whole test process in
// loadESMFromCJS/CreateRequiredModuleFacade while a worker started. This CommonJS file is what piscina require()s:
// it imports the ES module worker with import(), which never takes that path, and hands each task on.
const WORKER_CJS = `'use strict';
// Written by scripts/write-entry.mjs: piscina require()s this file; it imports the ES module worker beside it.
let worker;
module.exports = async function simulateChunks(task) {
  worker ??= import('./simulate.js');
  return (await worker).default(task);
};
`;
writeFileSync(join(dist, 'workers/simulate.cjs'), WORKER_CJS);

/**
 * Finds the rule a command names: a built-in id, or the path of a rule file
 * (docs/custom-rules.md). A reference that contains a slash or ends in a
 * script extension is always a path, anything else always a built-in id, so
 * a rule file may reuse a built-in's id without ever shadowing it.
 *
 * A file is read once, hashed (sha256) and imported under a URL that
 * carries the hash: a file edited between two runs of one process is
 * imported afresh, and a worker can check it imports the very file the
 * command loaded. The hash covers the files it imports by relative path
 * too (see ruleFileDigest), so a shard is never merged, nor a worker run,
 * with a helper that changed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Rule } from '../contract/types.js';
import { badValue, UsageError } from '../errors.js';
import { refuseOnMainThread } from '../guard/main-thread.js';
import { enterRuleCall, leaveRuleCall } from '../guard/rule-calls.js';
import { describeError, describeValue, isA } from '../guard/rule-text.js';
import { readInputBytes } from '../input/read-file.js';
import { deepFreeze } from '../rules/deep-freeze.js';
import { getRule, rules } from '../rules/index.js';
import { isRulePath, SCRIPT } from './path.js';
import { adaptRuleFile } from './rule.js';

export { isRulePath };

/** The rule a command names: built-in by id, or loaded from a rule file (resolved against the working folder). */
export async function loadRule(ref: string): Promise<Rule> {
  if (!isRulePath(ref)) return getRule(ref);
  return loadRuleFile(resolve(ref), ref);
}

const loaded = new Map<string, Rule>();

/**
 * A rule file's rule. `shown` is how messages name the file; with
 * `expectedSha256` (a worker, or a merge) the file must still hash to it.
 * `reuseChecked` (a worker, within one run) skips reading a file already
 * checked against that hash.
 */
export async function loadRuleFile(
  path: string,
  shown: string = path,
  expectedSha256?: string,
  reuseChecked = false,
): Promise<Rule> {
  if (!SCRIPT.test(path))
    throw badValue('rule', shown, 'a built-in rule id, or a rule file ending in .mjs, .js, .cjs, .ts, .mts or .cts');
  // The CLI runs a command that loads a rule file on a thread it can stop (cli/supervisor.ts), never on its main one.
  refuseOnMainThread(shown);
  // A worker meets the same file in task after task: once checked against the run's hash, it is not read again.
  if (expectedSha256 !== undefined && reuseChecked) {
    const checked = loaded.get(`${path}\u0000${expectedSha256}\u0000${shown}`);
    if (checked) return checked;
  }
  const typed = TYPESCRIPT.test(path);
  const { sha256, compiled } = await readAndHash(path, shown);
  if (expectedSha256 !== undefined && sha256 !== expectedSha256) {
    throw new UsageError(
      `${shown}: the rule file, or a file it imports, differs from the run's (sha256 ${sha256.slice(0, 12)}… ` +
        `instead of ${expectedSha256.slice(0, 12)}…); allowed: the same file and the files it imports, unchanged`,
    );
  }
  const key = `${path}\u0000${sha256}\u0000${shown}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  let module: { default?: unknown };
  if (compiled && 'error' in compiled) throw compileProblem(compiled.error, shown);
  const url =
    compiled && 'code' in compiled
      ? `data:text/javascript;base64,${Buffer.from(compiled.code).toString('base64')}`
      : `${pathToFileURL(path).href}?sha256=${sha256}`;
  // The file's top-level code runs inside the import, marked so that a watcher can name it when it never finishes.
  const marked = enterRuleCall(shown, 'top-level code');
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new UsageError(`${shown}: does not load: ${typed ? oneLineOf(error) : loadProblem(error, path)}`);
  } finally {
    leaveRuleCall(marked);
  }
  // Frozen: every later load of this file in the process is handed the same object (deep-freeze.ts).
  const rule: Rule = deepFreeze({ ...adaptRuleFile(module.default, shown), file: { path, sha256, origin: shown } });
  loaded.set(key, rule);
  return rule;
}

/**
 * Whether `rule` is a rule file's rule exactly as loadRuleFile gave it, so that a worker loading the same file
 * holds the same rule; not one wrapped since (a distribution's tails added as metrics, say), which a worker would
 * not rebuild.
 */
export function isLoadedRuleFile(rule: Rule): boolean {
  const file = rule.file;
  return file !== undefined && loaded.get(`${file.path}\u0000${file.sha256}\u0000${file.origin}`) === rule;
}

/**
 * The sha256 a rule file is known by (see ruleFileDigest), without
 * importing it: merge compares it with the hash a shard records before it
 * imports anything. Reading it only reads: esbuild bundles without running.
 */
export async function ruleFileSha256(path: string, shown: string = path): Promise<string> {
  if (!SCRIPT.test(path)) throw badValue('rule', shown, 'a rule file ending in .mjs, .js, .cjs, .ts, .mts or .cts');
  return (await readAndHash(path, shown)).sha256;
}

/** A rule file's contents hashed with the files it imports; a TypeScript file compiled once, its build giving both. */
async function readAndHash(
  path: string,
  shown: string,
): Promise<{ sha256: string; compiled: { code: string; inputs: Imported[] } | { error: unknown } | null }> {
  try {
    statSync(path);
  } catch {
    throw badValue(
      'rule',
      shown,
      `a built-in rule id (${rules.map((r) => r.id).join(', ')}) or the path of an existing rule file`,
    );
  }
  // Never a device, a FIFO or a folder: reading /dev/zero or a pipe would never end.
  const contents = readInputBytes(
    path,
    'rule',
    'a rule file: a regular file ending in .mjs, .js, .cjs, .ts, .mts or .cts',
    shown,
  );
  const compiled = TYPESCRIPT.test(path) ? await bundleRuleFile(path, true) : null;
  const sha256 = compiled
    ? digestOf(contents, 'code' in compiled ? compiled.inputs : [])
    : await ruleFileDigest(path, contents);
  return { sha256, compiled };
}

const TYPESCRIPT = /\.(ts|mts|cts)$/i;
/**
 * A quoted string that starts like a relative module path, or a module
 * named after `from`, `import` or `require` that is not one of Node's own
 * ("node:…"): the file may import a file of its own or a package.
 */
const IMPORTS = /['"`]\.\.?\/|(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"`](?!node:)/;
/**
 * Where a package's file lives: the part of its path after the last node_modules/ names it wherever it is installed.
 */
const PACKAGE_FILE = /(?:^|\/)node_modules\/(.*)$/;

/**
 * The sha256 a rule file is known by: of its contents alone when it imports
 * nothing (as muster has always recorded it), else of its contents
 * followed, for every file it imports directly or through another (found by
 * esbuild, the bundler muster ships), in order of their names, by a NUL,
 * the name, a NUL and the file's contents. A file of its own is named by its
 * path relative to the rule file's folder ("helpers/table.mjs"), a file of
 * a package by "package:" and its path inside node_modules
 * ("package:lodash/lodash.js"), so the same package installed elsewhere
 * hashes alike. Node's own modules are not files and are not covered. A
 * file esbuild cannot read (a syntax error) is hashed alone; its import
 * then fails with the error Node gives. A file in which no string is
 * imported (none starting "./" or "../", none after from, import or
 * require) is hashed without asking esbuild, which would add a tenth of a
 * second to every command and worker.
 */
async function ruleFileDigest(path: string, contents: Buffer): Promise<string> {
  if (!IMPORTS.test(contents.toString('utf8'))) return digestOf(contents, []);
  const bundled = await bundleRuleFile(path, false);
  return digestOf(contents, 'inputs' in bundled ? bundled.inputs : []);
}

/** One file a rule file imports: its name in the hash (see ruleFileDigest) and where it is. */
interface Imported {
  name: string;
  file: string;
}

function digestOf(contents: Buffer, inputs: readonly Imported[]): string {
  const hash = createHash('sha256').update(contents);
  for (const { name, file } of inputs)
    hash
      .update(`\u0000${name}\u0000`)
      .update(readInputBytes(file, 'rule', 'a rule file and the regular files it imports'));
  return hash.digest('hex');
}

/**
 * The rule file bundled by esbuild with its imports (packages included):
 * the files it imports, named and in order as ruleFileDigest hashes them,
 * and with `code` the bundle itself as one ES module (a TypeScript file's
 * compiled form), or the build's error.
 */
async function bundleRuleFile(
  path: string,
  code: true,
): Promise<{ code: string; inputs: Imported[] } | { error: unknown }>;
async function bundleRuleFile(path: string, code: false): Promise<{ inputs: Imported[] } | { error: unknown }>;
async function bundleRuleFile(
  path: string,
  code: boolean,
): Promise<{ code?: string; inputs: Imported[] } | { error: unknown }> {
  const folder = dirname(path);
  const { build } = await import('esbuild');
  // esbuild would wait forever on an import that is a FIFO, or read a device without end: each file is looked at first.
  let irregular: string | undefined;
  const regularFiles = {
    name: 'muster-regular-files',
    setup(bundler: import('esbuild').PluginBuild) {
      bundler.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        let regular = false;
        try {
          regular = statSync(args.path).isFile();
        } catch {
          return undefined; // esbuild says it cannot read it
        }
        if (regular) return undefined;
        irregular ??= args.path;
        return { errors: [{ text: `${args.path} is not a regular file` }] };
      });
    },
  };
  try {
    const result = await build({
      plugins: [regularFiles],
      entryPoints: [path],
      absWorkingDir: folder,
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
      ...(code ? { sourcemap: 'inline' as const, sourcesContent: false } : {}),
    });
    const inputs = Object.keys(result.metafile.inputs)
      .map((input) => resolve(folder, input))
      .filter((input) => input !== path)
      .map((file) => {
        const inPackage = PACKAGE_FILE.exec(file.split(sep).join('/'));
        return { name: inPackage ? `package:${inPackage[1]}` : relative(folder, file).split(sep).join('/'), file };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return code ? { code: result.outputFiles[0].text, inputs } : { inputs };
  } catch (error) {
    if (irregular !== undefined) {
      const shown = relative(folder, irregular).split(sep).join('/');
      throw new UsageError(
        `rule: ${JSON.stringify(path)} imports ${JSON.stringify(shown)}, which is not a regular file (a device, ` +
          `a FIFO or a folder); allowed: rule files that import regular files`,
      );
    }
    return { error };
  }
}

/**
 * A TypeScript rule file is compiled with the esbuild muster already ships
 * (for the calculator page) into one ES module, its imports bundled in, and
 * imported from a data: URL (bundleRuleFile). Node 20 cannot import
 * TypeScript itself, and a loader hook would have to be registered in every
 * worker thread; a worker compiles the file the same way, and esbuild's
 * output for a file is the same every time. Types are stripped, not
 * checked: run tsc for that. A file that does not compile is one line.
 */
function compileProblem(error: unknown, shown: string): UsageError {
  const first = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> })
    .errors?.[0];
  const where = first?.location ? ` (${first.location.file} line ${first.location.line})` : '';
  return new UsageError(
    `${shown}: does not compile: ${first ? `${first.text}${where}` : oneLineOf(error)}`.replace(
      /[\u0000-\u001f\u007f]+/g,
      ' ',
    ),
  );
}

function oneLineOf(error: unknown): string {
  return isA(error, Error) ? describeError(error) : describeValue(error);
}

/**
 * The first line of an import failure. A syntax error's line number is not
 * in the error Node gives import(), so `node --check` is asked for it (only
 * ever after a failure).
 */
function loadProblem(error: unknown, path: string): string {
  // What the top-level code threw may be anything: a symbol, a Proxy, an error whose message getter throws.
  if (!isA(error, SyntaxError)) return oneLineOf(error);
  const check = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  const line = new RegExp(`^${escapeRegExp(path)}:(\\d+)`, 'm').exec(check.stderr ?? '')?.[1];
  return `${describeError(error)}${line ? ` (line ${line})` : ''}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

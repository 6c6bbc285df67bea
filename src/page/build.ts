/**
 * Builds the calculator page (`muster app`): one HTML file that opens from
 * file:// with the network off.
 *
 *   worker.ts ──esbuild──► worker bundle (rules + streams) ─────────────┐
 *   workbench/sandbox-worker.ts ─esbuild──► sandbox bundle (rule-file adapter, enumerator) ─┤ as strings
 *   examples/rules/*.mjs (read as text, for the workbench) ────────────┤
 *   browser.ts ─esbuild──► page bundle (rules, exact solvers, stats, charts) ◄┘
 *   vega, vega-lite, vega-embed (as reports inline them) + page bundle ─► <script>s, hashed into the CSP
 *
 * esbuild bundles for the browser platform, so a rule module that pulled a
 * `node:` module into the page would fail the build, loudly, here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { chartPageHead } from '../../reports/page.js';
import { UsageError } from '../errors.js';
import { APP_STYLE } from './style.js';

export interface AppBuild {
  html: string;
  /** The rule ids the page offers, built-in first. */
  ruleIds: string[];
}

export interface AppBuildOptions {
  /**
   * Rule files to bundle beside the built-in rules (`--rule FILE`): each
   * file's absolute path and the name messages give it (as the user wrote
   * it). Each becomes an import of the file, adapted to the Rule interface in
   * the page. The caller has loaded them first (src/rule-files/load.ts) and
   * gives each rule's id.
   */
  ruleFiles?: ReadonlyArray<{ path: string; shown: string; id: string }>;
  /**
   * A module (absolute path) exporting `extraRules: Rule[]`, bundled in place
   * of ./extra-rules: how the tests put fixture rules (hostile titles, a rule
   * without an exact solution) into a page.
   */
  extraRulesModule?: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * An entry module beside this one: compiled JavaScript under dist/, TypeScript when run from the sources (the tests).
 */
function sibling(name: string): string {
  const compiled = join(HERE, `${name}.js`);
  return existsSync(compiled) ? compiled : join(HERE, `${name}.ts`);
}

/**
 * A module of muster's sources by its path under the package root: compiled JavaScript under dist/, TypeScript from the
 * sources.
 */
function source(path: string): string {
  const compiled = join(HERE, '..', '..', `${path}.js`);
  return existsSync(compiled) ? compiled : join(HERE, '..', '..', `${path}.ts`);
}

/**
 * Replaces ./extra-rules, in both bundles, with the rule files or the module
 * asked for; without either it stays the empty list. Each rule file (its
 * absolute path; appCommand has loaded and checked it) is imported and
 * adapted to the Rule interface by the same adaptRuleFile muster run uses,
 * named in messages as the user gave it.
 */
function extraRulesPlugin(options: AppBuildOptions): Plugin {
  return {
    name: 'muster-extra-rules',
    setup(builder) {
      const ruleFiles = options.ruleFiles ?? [];
      if (ruleFiles.length === 0 && !options.extraRulesModule) return;
      builder.onLoad({ filter: /[\\/]src[\\/]page[\\/]extra-rules\.(js|ts)$/ }, () => {
        if (ruleFiles.length === 0)
          return {
            contents:
              `export { extraRules } from ${JSON.stringify(options.extraRulesModule)};\nexport const ` +
              `extraRuleOrigins = [];`,
            loader: 'js',
            resolveDir: HERE,
          };
        const lines = [`import { adaptRuleFile } from ${JSON.stringify(source('src/rule-files/rule'))};`];
        ruleFiles.forEach((file, index) => lines.push(`import rule${index} from ${JSON.stringify(file.path)};`));
        lines.push(
          `export const extraRules = ` +
            `[${ruleFiles
              .map((file, index) => `adaptRuleFile(rule${index}, ` + `${JSON.stringify(file.shown)})`)
              .join(', ')}];`,
        );
        lines.push(`export const extraRuleOrigins = ${JSON.stringify(ruleFiles.map((file) => file.shown))};`);
        return { contents: lines.join('\n'), loader: 'js', resolveDir: HERE };
      });
    },
  };
}

async function bundle(entry: string, options: AppBuildOptions, define: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    // BigInt (the exact solvers' fractions) needs ES2020: Chrome 80, Firefox 72, Safari 14.
    target: ['es2020'],
    minify: true,
    charset: 'utf8',
    legalComments: 'inline',
    logLevel: 'silent',
    define,
    plugins: [extraRulesPlugin(options)],
  }).catch((error: unknown) => {
    // A plugin's UsageError (a --rule problem) comes back wrapped in esbuild's failure: unwrap it for the one-line
    // message.
    const first = (
      error as { errors?: Array<{ detail?: unknown; text?: string; location?: { file?: string } | null }> }
    ).errors?.[0];
    if (first?.detail instanceof UsageError) throw first.detail;
    // A rule file that a browser cannot load (a node: import, a missing helper): one line naming the file, as --rule's
    // problem.
    const files = options.ruleFiles ?? [];
    if (first && files.length > 0) {
      const where = first.location?.file ? resolve(first.location.file) : '';
      const named = files.find((file) => file.path === where) ?? (files.length === 1 ? files[0] : undefined);
      const shown = named ? JSON.stringify(named.shown) : files.map((file) => JSON.stringify(file.shown)).join(', ');
      throw new UsageError(
        `--rule: got ${shown} (it does not bundle for the browser: ` +
          `${String(first.text).replace(/[\u0000-\u001f\u007f]+/g, ' ')}); allowed: a rule file whose imports a ` +
          `browser can ` +
          `load (no node: modules)`,
      );
    }
    throw error;
  });
  return result.outputFiles[0].text;
}

/**
 * The rule files of examples/rules/, shipped in the page for its workbench (to open, edit and run in a sandbox):
 * from the sources (the tests), or beside dist/ (the repository's build). A package installed without them ships none.
 */
function shippedFiles(): Array<{ name: string; source: string }> {
  const folder = [join(HERE, '..', '..', 'examples', 'rules'), join(HERE, '..', '..', '..', 'examples', 'rules')].find(
    (candidate) => existsSync(candidate),
  );
  if (!folder) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.mjs'))
    .sort()
    .map((name) => ({ name, source: readFileSync(join(folder, name), 'utf8') }));
}

/** Script text that an HTML parser could end early; esbuild escapes these in strings, and a test checks. */
function assertInlinable(name: string, code: string): void {
  if (/<\/script|<!--/i.test(code)) throw new Error(`${name} cannot be inlined: it contains </script or <!--`);
}

/** Bundles the page and returns it as one HTML string (nothing is written here). */
export async function buildAppHtml(options: AppBuildOptions = {}): Promise<AppBuild> {
  const worker = await bundle(sibling('worker'), options);
  const sandbox = await bundle(sibling('workbench/sandbox-worker'), options);
  const page = await bundle(sibling('browser'), options, {
    __MUSTER_WORKER_SOURCE__: JSON.stringify(worker),
    __MUSTER_SANDBOX_SOURCE__: JSON.stringify(sandbox),
    __MUSTER_SHIPPED_FILES__: JSON.stringify(shippedFiles()),
  });
  assertInlinable('the calculator bundle', page);
  const { rules } = await import('../rules/index.js');
  const ruleIds = [...rules.map((rule) => rule.id), ...(options.ruleFiles ?? []).map((file) => file.id)];
  // The calculator's own scripts start its simulation workers from Blob URLs, which its policy must allow.
  const html =
    `${chartPageHead('muster calculator', APP_STYLE, true, [page], { blobWorkers: true })}
<body>
<div class="sheet">
<header class="top">
<p class="kicker">muster · odds calculator</p>
<h1>What are the odds?</h1>
<p class="lead">Pick a rule, change a number, read the new odds: exact wherever the rule allows, computed in this ` +
    `page, with no network.</p>
</header>
<div class="layout">
<form id="controls" class="panel" novalidate aria-label="the question">
<div id="rule-field"><label for="rule-picker">Rule</label><select id="rule-picker"></select><p class="doc" ` +
    `id="rule-about"></p></div>
<div id="hash-problems" role="alert"></div>
<fieldset><legend>Parameters</legend><div id="param-fields"></div></fieldset>
<details id="simulation"><summary>Simulation</summary>
<div class="field field-boolean"><div class="control"><input type="checkbox" id="sim-on" ` +
    `aria-describedby="sim-note"><label for="sim-on">simulate</label></div><p class="doc" id="sim-note"></p></div>
<div class="field"><div class="control"><label for="sim-trials">trials</label><input type="text" id="sim-trials" ` +
    `inputmode="numeric" autocomplete="off" spellcheck="false" aria-describedby="sim-trials-doc ` +
    `sim-trials-error"></div><p class="error" id="sim-trials-error" hidden></p><p class="doc" id="sim-trials-doc">As ` +
    `muster run --trials: 1000000, 1e6, 1M.</p></div>
<div class="field"><div class="control"><label for="sim-seed">seed</label><input type="text" id="sim-seed" ` +
    `autocomplete="off" spellcheck="false" aria-describedby="sim-seed-doc sim-seed-error"></div><p class="error" ` +
    `id="sim-seed-error" hidden></p><p class="doc" id="sim-seed-doc">As muster run --seed: the same seed and trials ` +
    `give the same figures.</p></div>
<div class="field"><div class="control"><label for="sim-stream">stream</label><input type="text" id="sim-stream" ` +
    `inputmode="numeric" autocomplete="off" spellcheck="false" aria-describedby="sim-stream-doc ` +
    `sim-stream-error"></div><p class="error" id="sim-stream-error" hidden></p><p class="doc" id="sim-stream-doc">As ` +
    `muster run --stream: 5; 4, 3, 2 or 1 reproduce results made with those streams (docs/streams.md).</p></div>
</details>
<div id="workbench">
<div class="bench-bar"><label for="rule-files">Rule file</label><select id="rule-files"></select><button ` +
    `type="button" id="new-rule">New rule</button><button type="button" id="edit-rule">Edit</button></div>
<div id="editor" hidden>
<p class="doc" id="editor-about"></p>
<div id="gate" role="alert" hidden><p id="gate-text"></p><button type="button" id="gate-run">Run this ` +
    `rule</button></div>
<div class="code"><pre id="gutter" aria-hidden="true"></pre><textarea id="rule-source" aria-label="Rule source" ` +
    `aria-describedby="source-problem" spellcheck="false" autocomplete="off" autocapitalize="off" autocorrect="off" ` +
    `wrap="off" rows="14"></textarea></div>
<p id="source-problem" class="error" role="status" hidden></p>
<div class="bench-bar"><button type="button" id="share">Share</button><button type="button" id="download">Download ` +
    `.mjs</button><label class="file-button" for="open-file">Open a file…</label><input type="file" id="open-file" ` +
    `accept=".mjs,.js,text/javascript"><button type="button" id="delete-rule">Delete from this browser</button></div>
<div id="share-box" hidden><label for="share-link">Link to this rule and its parameters</label><input ` +
    `id="share-link" readonly><div id="share-local" hidden><p class="doc">This page was opened from a file on this ` +
    `device, so the link names a folder here and opens only here. To share the question, send the page itself ` +
    `(this HTML file, or the one <code>muster app</code> writes) and the text below, the part of the link after ` +
    `<code>#</code>: whoever opens their copy of the page adds it to the end of its address.</p><label ` +
    `for="share-hash">The question, after <code>#</code></label><input id="share-hash" readonly></div></div>
<p class="doc">The same contract as a rule file on disk (docs/custom-rules.md); Download gives a file <code>muster ` +
    `run</code> takes unchanged. The code runs in a sandbox: a worker with no page and no network. A file can also ` +
    `be ` +
    `dropped here.</p>
</div>
</div>
</form>
<main id="answer" class="panel" aria-labelledby="answer-title">
<h2 id="answer-title"></h2>
<p id="answer-params" class="params-line"></p>
<p id="answer-source" class="print-only method"></p>
<p id="print-link" class="print-only method"></p>
<p id="answer-method" class="method"></p>
<div id="status" aria-live="polite"></div>
<div id="headline" class="headline" aria-live="polite"></div>
<div id="charts"></div>
<div id="readings" hidden></div>
<section id="metrics" aria-labelledby="metrics-title"><h3 id="metrics-title">Every metric</h3><div ` +
    `id="metrics-table" class="table-scroll"></div></section>
<div class="actions"><button type="button" id="print">Print this card</button></div>
</main>
</div>
<div id="quick" aria-hidden="true"></div>
<footer>Made by muster. Exact values are computed in rational arithmetic and rounded only for display; simulated ` +
    `values carry the intervals shown. The state of the form is in the address (after #): copy it to share the ` +
    `question.</footer>
</div>
<div id="print-card" aria-hidden="true"></div>
<noscript><p>This calculator needs JavaScript; the figures are computed in the page.</p></noscript>
<script>${page}</script>
</body>
</html>
`;
  return { html, ruleIds };
}

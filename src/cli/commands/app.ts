import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeOutputs } from '../../../reports/outputs.js';
import { parseTimeout } from '../../engine/settings.js';
import { UsageError } from '../../errors.js';
import { checkDistinct } from '../../output/files.js';
import { interruptedStatus, interruption } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { terminalLine } from '../../output/terminal.js';
import { buildAppHtml } from '../../page/build.js';
import { loadRuleFile } from '../../rule-files/load.js';
import { rules } from '../../rules/index.js';
import { formatCount } from '../format.js';
import { checkOutputFile } from '../options.js';
import { checkOutputNames } from '../output-names.js';

interface AppOptions {
  out?: string;
  rule?: string[];
  /** Checked here; the supervisor stops a rule file's call that runs past it (cli/supervisor.ts). */
  timeout?: string;
}

const DEFAULT_APP_FILE = 'app.html';

/**
 * `muster app`: the odds calculator as one HTML file that works offline —
 * every rule's form, exact answers in the page, simulation in Web Workers.
 */
export async function appCommand(options: AppOptions, io: Io): Promise<string> {
  if (options.timeout !== undefined) parseTimeout(options.timeout);
  checkOutputNames([{ option: '--out', path: options.out, format: 'html' }]);
  const out = checkOutputFile('--out', options.out ?? DEFAULT_APP_FILE);
  const ruleFiles = (options.rule ?? []).map((file) => {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      // reported below
    }
    if (!isFile)
      throw new UsageError(`--rule: got ${JSON.stringify(file)}; allowed: a rule file (an ES module) that exists`);
    return file;
  });
  // The page must never replace a rule file it bundles.
  checkDistinct(
    [{ option: '--out', path: out }],
    ruleFiles.map((file) => ({ name: '--rule', path: file })),
  );
  // Each file is loaded and checked as muster run would (one-line errors) before anything is bundled; the page
  // offers rules by id (the picker, the link), so a file's id may be neither a built-in's nor another file's.
  const taken = new Map<string, string>(rules.map((rule) => [rule.id, 'a built-in rule']));
  const bundled: Array<{ path: string; shown: string; id: string }> = [];
  for (const file of ruleFiles) {
    const path = resolve(file);
    const rule = await loadRuleFile(path, file);
    const clash = taken.get(rule.id);
    if (clash) {
      const ids = [...taken.keys()].map((id) => JSON.stringify(id)).join(', ');
      throw new UsageError(
        `--rule: got ${JSON.stringify(file)} (its id ${JSON.stringify(rule.id)} is taken by ${clash}); allowed: ` +
          `rule files whose ids differ from each other and from ${ids}`,
      );
    }
    taken.set(rule.id, `the rule in ${JSON.stringify(file)}`);
    bundled.push({ path, shown: file, id: rule.id });
  }
  let app;
  try {
    app = await buildAppHtml({ ruleFiles: bundled });
  } catch (error) {
    // Ctrl-C signals the whole process group, esbuild's service too, which then fails the build: interrupted, not
    // broken.
    if (interruption() === null) throw error;
    io.err('muster: PARTIAL: interrupted while bundling the page; nothing was written\n');
    process.exitCode = interruptedStatus();
    return out;
  }
  writeOutputs([{ path: out, contents: app.html, option: '--out' }], io.out);
  const size = Buffer.byteLength(app.html, 'utf8');
  io.out(
    `wrote the calculator: ${terminalLine(out)} (${app.ruleIds.length} rules, ` +
      `${formatCount(Math.round(size / 1024))} KB); open it in a browser, no network needed\n`,
  );
  return out;
}

import { statSync } from 'node:fs';
import { buildAppHtml } from '../../../reports/app/build.js';
import { writeOutputs } from '../../../reports/outputs.js';
import { checkDistinct } from '../../output/files.js';
import { UsageError } from '../../errors.js';
import { formatCount } from '../format.js';
import type { Io } from '../io.js';
import { checkOutputFile } from '../options.js';

export interface AppOptions {
  out?: string;
  rule?: string[];
}

export const DEFAULT_APP_FILE = 'app.html';

/**
 * `muster app`: the odds calculator as one HTML file that works offline —
 * every rule's form, exact answers in the page, simulation in Web Workers.
 */
export async function appCommand(options: AppOptions, io: Io): Promise<string> {
  const out = checkOutputFile('--out', options.out ?? DEFAULT_APP_FILE);
  const ruleFiles = (options.rule ?? []).map((file) => {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      // reported below
    }
    if (!isFile) throw new UsageError(`--rule: got ${JSON.stringify(file)}; allowed: a rule file (an ES module) that exists`);
    return file;
  });
  // The page must never replace a rule file it bundles.
  checkDistinct([{ option: '--out', path: out }], ruleFiles.map((file) => ({ name: '--rule', path: file })));
  const app = await buildAppHtml({ ruleFiles });
  writeOutputs([{ path: out, contents: app.html, option: '--out' }], io.out);
  const size = Buffer.byteLength(app.html, 'utf8');
  io.out(`wrote the calculator: ${out} (${app.ruleIds.length} rules, ${formatCount(Math.round(size / 1024))} KB); open it in a browser, no network needed\n`);
  return out;
}

import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { writeOutputs } from '../../../reports/outputs.js';
import { badValue, UsageError } from '../../errors.js';
import type { Io } from '../../output/io.js';
import { terminalLine } from '../../output/terminal.js';
import { ruleFileTemplate, ruleTestTemplate } from '../../rule-files/template.js';
import { shellWord } from '../../text/suggest.js';

/**
 * `muster new-rule NAME`: writes NAME.mjs, a commented rule file that runs as
 * written, and NAME.test.mjs, its vitest test (the trial driven by chosen
 * dice, and exact checked against every way the dice can fall). Existing
 * files are never overwritten: then nothing is written.
 */
export async function newRuleCommand(name: string, io: Io): Promise<{ rule: string; test: string }> {
  const stem = name.replace(/\.m?js$/, '');
  const id = basename(stem);
  if (!/^[A-Za-z][A-Za-z0-9-]{0,63}$/.test(id))
    throw badValue(
      'NAME',
      name,
      "a rule name of letters, digits and '-', starting with a letter (optionally in a folder: rules/my-rule)",
    );
  const rulePath = resolve(`${stem}.mjs`);
  const testPath = resolve(`${stem}.test.mjs`);
  const folder = dirname(rulePath);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`NAME: folder ${folder} does not exist; allowed: a name in an existing folder`);
  for (const path of [rulePath, testPath]) {
    if (existsSync(path))
      throw new UsageError(
        `NAME: ${path} already exists; allowed: a name whose .mjs and .test.mjs files do not exist yet (nothing ` +
          `was written)`,
      );
  }
  writeOutputs([
    { path: rulePath, contents: ruleFileTemplate(id) },
    { path: testPath, contents: ruleTestTemplate(id) },
  ]);
  io.out(
    [
      `wrote ${terminalLine(rulePath)}`,
      `wrote ${terminalLine(testPath)}`,
      '',
      'Next:',
      `  muster describe ${relative(rulePath)}          its parameters and metrics`,
      `  muster run ${relative(rulePath)} --exact       the exact odds`,
      `  muster run ${relative(rulePath)}               simulated, with intervals`,
      `  npx vitest run ${shellWord(basename(testPath))}    its tests (npm install --save-dev vitest first)`,
      'The contract in full: docs/custom-rules.md in the muster repository.',
      '',
    ].join('\n'),
  );
  return { rule: rulePath, test: testPath };
}

function relative(path: string): string {
  const cwd = process.cwd();
  // Quoted for a shell where it must be, so the line can be pasted as it is.
  return shellWord(path.startsWith(`${cwd}/`) ? `./${path.slice(cwd.length + 1)}` : path);
}

/**
 * The workbench's pieces that need no browser: a rule file's text turned
 * into a function body (module-text.ts) keeps every line where it was and
 * means what Node's import of the same file means; a rule's source packed
 * for a link (share.ts) comes back unchanged, and a link's code that is
 * garbled or unpacks past the limit is one line, never a hang; a link that
 * carries code has its own bound on length.
 */

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_CODE_HASH_LENGTH, MAX_HASH_LENGTH, parseHash } from '../../src/page/hash.js';
import { MODULE_NAME, scriptOf, WRAPPER_LINES } from '../../src/page/workbench/module-text.js';
import { MAX_SOURCE_LENGTH, packSource, unpackSource } from '../../src/page/workbench/share.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { scratchFolder } from '../support/cli.js';

const examples = new URL('../../examples/rules/', import.meta.url);
const files = readdirSync(examples).filter((name) => name.endsWith('.mjs'));
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const folder = scratchFolder('workbench-unit');

// biome-ignore lint/security/noGlobalEval: the sandbox compiles the rule's text so; the test does as it does.
const indirectEval = eval;

/** Runs the wrapped code as the sandbox does and returns its default export. */
function evaluated(source: string): unknown {
  const script = scriptOf(source);
  if (!('code' in script)) throw new Error(script.problem);
  const body = indirectEval(script.code) as (module: { default?: unknown }) => void;
  const module: { default?: unknown } = {};
  body(module);
  return module.default;
}

const defaultsOf = (rule: ReturnType<typeof adaptRuleFile>) =>
  Object.fromEntries(rule.params.map((spec) => [spec.name, spec.default]));

describe('a rule file as a function body', () => {
  it('every example: each line where it was, and the same exact values as the file imported', async () => {
    for (const name of files) {
      const source = readFileSync(new URL(name, examples), 'utf8');
      const script = scriptOf(source);
      if (!('code' in script)) throw new Error(`${name}: ${script.problem}`);
      const wrapped = script.code.split('\n');
      const lines = source.split('\n');
      expect(wrapped.length, name).toBe(lines.length + WRAPPER_LINES + 1);
      lines.forEach((line, index) => {
        const at = wrapped[index + WRAPPER_LINES];
        if (/^\s*export\b/.test(line)) expect(at, `${name} line ${index + 1}`).not.toMatch(/\bexport\b/);
        else expect(at, `${name} line ${index + 1}`).toBe(line);
      });
      const imported = adaptRuleFile((await import(pathToFileURL(join(examples.pathname, name)).href)).default, name);
      const inPage = adaptRuleFile(evaluated(source), name);
      expect(inPage.id).toBe(imported.id);
      if (!imported.exact) continue;
      const params = defaultsOf(imported);
      const exact = (rule: typeof imported) =>
        Object.fromEntries(
          Object.entries(rule.exact?.values(params) ?? {}).map(([key, value]) => [key, value.toString()]),
        );
      expect(exact(inPage), name).toEqual(exact(imported));
    }
  });

  it('export before a declaration keeps the name in scope; export default of a function too', () => {
    const rule = evaluated(
      'export const sides = 6;\nexport function roll(d) { return d.d(sides); }\nexport default { sides, roll };',
    );
    expect((rule as { sides: number }).sides).toBe(6);
    expect(typeof (rule as { roll: unknown }).roll).toBe('function');
    expect(typeof evaluated('export default function rule() {}')).toBe('function');
    expect(scriptOf('export default {};').toString()).not.toContain('export');
    expect((scriptOf('export default {};') as { code: string }).code).toContain(`${MODULE_NAME}.default =`);
  });

  it(
    'an import, a second default export or an export list: refused with its line; the second default in Node’s ' +
      'words',
    async () => {
      expect(scriptOf("// a helper\nimport { table } from './table.mjs';\nexport default {};")).toEqual({
        problem:
          'import is not available in the page (a rule written here is one file); allowed: the helpers in the same ' +
          'file',
        line: 2,
      });
      const twice = 'export default {};\n\nexport default {};\n';
      const refused = scriptOf(twice) as { problem: string; line: number };
      expect(refused.line).toBe(3);
      // The words muster run gives the same file (Node's, with node --check's line), as the sandbox words it.
      writeFileSync(join(folder, 'twice.mjs'), twice);
      const cli = spawnSync(process.execPath, [CLI, 'run', 'twice.mjs'], { cwd: folder, encoding: 'utf8' });
      expect(cli.stderr).toBe(`muster: twice.mjs: does not load: ${refused.problem} (line ${refused.line})\n`);
      expect(scriptOf('const a = 1;\nexport { a as default };')).toMatchObject({ line: 2 });
    },
  );
});

describe('a rule in a link', () => {
  it('every example packs and unpacks to itself, and its link stays within the bound', async () => {
    for (const name of files) {
      const source = readFileSync(new URL(name, examples), 'utf8');
      const packed = await packSource(source);
      expect(packed).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(await unpackSource(packed)).toEqual({ source });
      expect(packed.length + 1000).toBeLessThan(MAX_CODE_HASH_LENGTH);
    }
    const unicode = '// “quotes”, emoji 🎲, and a NUL \u0000\nexport default {};';
    expect(await unpackSource(await packSource(unicode))).toEqual({ source: unicode });
  });

  it('garbled code, or code that unpacks past the limit (a few KB standing for megabytes): one line', async () => {
    for (const garbled of ['%%%', 'AAAA', `${(await packSource('export default {};')).slice(0, -3)}!!!`])
      expect(await unpackSource(garbled)).toEqual({
        problem: 'link: its code is not readable (cut short or changed); allowed: a link the Share button made',
      });
    const bomb = await packSource('a'.repeat(50_000_000));
    expect(bomb.length).toBeLessThan(100_000);
    expect(await unpackSource(bomb)).toEqual({
      problem:
        `link: its code is longer than ${MAX_SOURCE_LENGTH.toLocaleString('en-US')} characters; allowed: a ` +
        `rule file up to that length`,
    });
  });

  it('a link that carries code may be longer than any other link, up to its own bound', () => {
    const long = 'A'.repeat(MAX_HASH_LENGTH + 10);
    expect(parseHash(`#~${long}?sides=6`).refused).toBeUndefined();
    expect(parseHash(`#~${long}?sides=6`).entries).toEqual([['sides', '6']]);
    expect(parseHash(`#infinity?seed=${long}`).refused).toMatch(/^link: got /);
    expect(parseHash(`#~${'A'.repeat(MAX_CODE_HASH_LENGTH)}`).refused).toMatch(/^link: got /);
  });
});

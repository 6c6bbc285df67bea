/**
 * Every page says which readings it took: rule.presentation.readings for every built-in
 * rule, `muster describe`, and the Readings block of every kind of page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../reports/escape.js';
import { readingLines, readingRows } from '../../reports/readings.js';
import { buildRunPage } from '../../reports/run-report.js';
import type { ParamSpec, ParamValue, Rule } from '../../src/contract/types.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { cli, scratchFolder } from '../support/cli.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule, HOSTILE } from '../support/hostile.js';

const folder = scratchFolder('readings');

/** Another value the parameter allows, next to its default: the other choice, the other boolean, the next integer. */
function otherValue(spec: ParamSpec): ParamValue {
  switch (spec.type) {
    case 'choice':
      return spec.choices.find((choice) => choice !== spec.default)!;
    case 'boolean':
      return !spec.default;
    case 'integer':
    case 'number':
      return spec.default + 1 <= spec.max ? spec.default + 1 : spec.default - 1;
    case 'text':
      return spec.default;
  }
}

describe('rule.presentation.readings: each reading names a parameter that really switches it', () => {
  for (const rule of rules) {
    it(
      `${rule.id}: every reading's parameter exists, its text names a setting to change it, and changing it ` +
        `changes the reading`,
      () => {
        expect(rule.presentation?.readings, `${rule.id} declares readings`).toBeDefined();
        const defaults = resolveParams(rule);
        const readings = rule.presentation!.readings!(defaults);
        for (const reading of readings) {
          const spec = rule.params.find((p) => p.name === reading.param);
          expect(spec, `${rule.id}: ${reading.param} is a parameter`).toBeDefined();
          expect(reading.text).toContain(reading.param); // "…; edges=long counts only …": how to switch it
          expect(reading.text.includes('\n')).toBe(false);
          const other = otherValue(spec!);
          const switched = rule.presentation!.readings!(resolveParams(rule, [], { [reading.param]: other }));
          const after = switched.find((r) => r.param === reading.param);
          expect(after?.text, `${rule.id}: ${reading.param}=${String(other)} gives another reading`).not.toBe(
            reading.text,
          );
        }
      },
    );
  }

  it(
    'the rules with open readings list them at the defaults; Noctvale, whose text settles every figure, lists ' +
      'none',
    () => {
      // Pinned for the rules whose texts leave these open (a rule added later pins its own in its tests).
      const expected: Array<[string, string[]]> = [
        ['reserves', ['firstRound', 'fallbackCommand']],
        ['deployment', ['compare', 'edges', 'aocSides']],
        ['infinity', ['crits']],
        ['noctvale', []],
        ['warbands', ['underdogBy', 'defender']],
        ['fow', ['attackerStart', 'defenderStart', 'hit', 'guarantee', 'ambush', 'endTurn']],
      ];
      for (const [id, params] of expected) {
        const rule = rules.find((r) => r.id === id)!;
        expect(
          rule.presentation!.readings!(resolveParams(rule)).map((r) => r.param),
          id,
        ).toEqual(params);
      }
      // aocSides only matters, so only shows, while the side edges count.
      expect(
        rules.find((r) => r.id === 'deployment')!.presentation!.readings!(
          resolveParams(rules.find((r) => r.id === 'deployment')!, ['edges=long']),
        ).map((r) => r.param),
      ).toEqual(['compare', 'edges']);
    },
  );

  it('Flames of War says plainly that Reserves from turn 1 play as Immediate Reserves', () => {
    const fow = rules.find((r) => r.id === 'fow')!;
    const text = fow.presentation!.readings!(resolveParams(fow)).find((r) => r.param === 'attackerStart')!.text;
    expect(text).toMatch(/same as Immediate Reserves/);
    expect(text).toMatch(/attackerStart=3/);
  });
});

describe('muster describe prints the readings at the defaults', () => {
  it('deployment: the edge reading with its value and the setting that switches it', async () => {
    const { status, stdout } = await cli('describe', 'deployment');
    expect(status).toBe(0);
    const block = stdout.slice(stdout.indexOf('Readings'));
    expect(block).toMatch(/^ {2}edges=geometric: a zone touching any board edge/m);
    expect(block).toMatch(/edges=long counts only the long board edge/);
    expect(block).toMatch(/^ {2}compare=raw: /m);
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('noctvale: no Readings heading when there is nothing to read', async () => {
    const { stdout } = await cli('describe', 'noctvale');
    expect(stdout).not.toContain('Readings');
  });
});

describe('every page carries a Readings block', () => {
  const readingsBlock = (html: string) => {
    const match = /<section class="readings keep" id="readings">([\s\S]*?)<\/section>/.exec(html);
    expect(match, 'a Readings section').not.toBeNull();
    return match![1];
  };

  it('a run page: each reading at its value, escaped, under the parameters and before the charts', () => {
    const hostileRule: Rule = {
      ...echoRule,
      presentation: {
        readings: (params) => [{ param: 'label', text: `the label is read as ${String(params.label)}` }],
      },
    };
    const params = resolveParams(hostileRule);
    const result = exactResult(hostileRule, params, 's');
    const { html } = buildRunPage(hostileRule, result);
    const block = readingsBlock(html);
    expect(block).toContain(escapeHtml(`the label is read as ${HOSTILE}`));
    expect(block.includes('<img')).toBe(false);
    expect(html.indexOf('id="readings"')).toBeLessThan(html.indexOf('<main>'));
  });

  it('muster run fow --html: the Immediate Reserves reading on the page and in the chart captions', async () => {
    const file = join(folder, 'fow.html');
    expect((await cli('run', 'fow', '--exact', '--html', file, '--quiet')).status).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(readingsBlock(html)).toContain(
      'attackerStart=1</span> the attacker&#39;s ordinary Reserves roll from turn 1, which makes them the same as ' +
        'Immediate Reserves',
    );
    expect(html).toContain('which makes them the same as Immediate Reserves; attackerStart=3 makes them wait.');
  });

  it('muster run --svg: a chart saved alone carries the readings in its subtitle', async () => {
    const svg = join(folder, 'svg');
    expect(
      (await cli('run', 'warbands', '--exact', '--set', 'underdogBy=warband', '--svg', svg, '--quiet')).status,
    ).toBe(0);
    const files = readdirSync(svg);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      // vega writes the wrapped subtitle as separate <text> lines; the words arrive in order.
      const text = readFileSync(join(svg, file), 'utf8')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');
      expect(text, file).toMatch(/Readings: underdogBy=warband: with allies, the lowest single warband is found first/);
    }
  });

  it('muster sweep deployment --vary edges: both edge readings, each with the point that takes it', async () => {
    const file = join(folder, 'sweep.html');
    expect(
      (await cli('sweep', 'deployment', '--vary', 'edges=geometric,long', '--exact', '--html', file, '--quiet')).status,
    ).toBe(0);
    const block = readingsBlock(readFileSync(file, 'utf8'));
    expect(block).toMatch(
      /edges=geometric<\/span> a zone touching any board edge[^<]*<span class="note">\(edges=geometric\)<\/span>/,
    );
    expect(block).toMatch(/edges=long<\/span> only zones 1–3[^<]*<span class="note">\(edges=long\)<\/span>/);
    // A reading the varied parameter does not touch is shown once, without a list of points.
    expect(block).toMatch(/compare=raw<\/span> a forward die[^<]*<\/li>/);
  });

  it('muster compare warbands: the two underdog readings, each labelled with its variant', async () => {
    const file = join(folder, 'compare.html');
    const status = (
      await cli(
        'compare',
        'warbands',
        '--variant',
        'by side: underdogBy=side',
        '--variant',
        'by warband: underdogBy=warband',
        '--exact',
        '--html',
        file,
        '--quiet',
      )
    ).status;
    expect(status).toBe(0);
    const block = readingsBlock(readFileSync(file, 'utf8'));
    expect(block).toMatch(/underdogBy=side<\/span>[^<]*<span class="note">\(by side\)<\/span>/);
    expect(block).toMatch(/underdogBy=warband<\/span>[^<]*<span class="note">\(by warband\)<\/span>/);
  });

  it('muster matrix deployment --html: the readings of the table, once', async () => {
    const file = join(folder, 'matrix.html');
    expect(
      (await cli('matrix', 'deployment', '--range', 'forward:5 standard:1,2,3', '--html', file, '--quiet')).status,
    ).toBe(0);
    const block = readingsBlock(readFileSync(file, 'utf8'));
    expect(block.match(/<li>/g)).toHaveLength(3);
    expect(block).toContain('zones 1, 2, 3, 4, 6, 7, 8 have one');
  });

  it('the report book: every rule page with readings at its defaults has a Readings block (not Noctvale)', async () => {
    const out = join(folder, 'book');
    expect((await cli('book', '--out', out, '--trials', '65536', '--quiet')).status).toBe(0);
    for (const rule of rules) {
      const html = readFileSync(join(out, `${rule.id}.html`), 'utf8');
      expect(html.includes('id="readings"'), rule.id).toBe(
        rule.presentation!.readings!(resolveParams(rule)).length > 0,
      );
      if (rule.id === 'noctvale') expect(html.includes('id="readings"')).toBe(false);
    }
  });
});

describe('readingRows', () => {
  it('lists each distinct reading once, with its values and, where sets differ, which sets take it', () => {
    const deployment = rules.find((r) => r.id === 'deployment')!;
    const sets = ['geometric', 'long', 'geometric'].map((edges, i) => ({
      label: `p${i}`,
      params: resolveParams(deployment, [`edges=${edges}`]),
    }));
    const lines = readingLines(readingRows(deployment, sets));
    expect(lines.filter((line) => line.startsWith('edges='))).toHaveLength(2);
    expect(lines.find((line) => line.startsWith('edges=geometric'))).toMatch(/\(p0; p2\)$/);
    expect(lines.find((line) => line.startsWith('compare=raw'))).not.toMatch(/\(p/);
  });
});

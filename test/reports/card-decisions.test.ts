/**
 * Best play on a card: `muster card <rule-file>` for a rule with choices prints the policy table, and `muster card
 * reserves --set chosenRound=call` a card of when to call. Figures against a hand-worked rule (a d6 kept or rolled
 * again once, for 4+: keep 4–6, roll again on 1–3, worth 3/4), against the fixed-round rule's own exact() for every
 * round declared before the game and against the rule-file port for the call; texts escaped; bad input refused in
 * one line, nothing written. The one-page check is in test/browser/card-decisions-browser.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_POLICY_ROWS } from '../../reports/card/decisions.js';
import { cardCommand } from '../../src/cli/commands/card.js';
import { main } from '../../src/cli.js';
import type { RuleDecisions } from '../../src/contract/types.js';
import type { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('card-decisions');

const examples = new URL('../../examples/rules/', import.meta.url).pathname;

/** A d6 rolled once; seeing it, A keeps it or rolls again once (the second roll stands). A plays for 4+. */
const KEEP_OR_REROLL = `
export default {
  id: 'keep-or-reroll',
  title: 'Keep or roll again',
  params: [],
  metrics: [{ name: 'four.up', probability: true, doc: 'the die kept shows 4 or more' }],
  start: () => ({}),
  choices: (s) => (s.face !== undefined && !s.final ? ['keep', 'reroll'] : null),
  choose: (s, option) => (option === 'keep' ? { face: s.face, final: true } : { again: true }),
  step: (s, dice) => (s.again ? { face: dice.d(6), final: true } : { face: dice.d(6) }),
  done: (s) => s.final === true,
  report: (s, p, out) => { out['four.up'] = s.face >= 4; },
  label: (s) => 'face <b>' + s.face + '</b>',
};
`;

/** The rows of one table section of a written card, each cell's text with the entities read back. */
function tableRows(html: string, id: string): string[][] {
  const section = new RegExp(`<section class="block table" id="${id}">(.*?)</section>`, 's').exec(html)?.[1];
  if (section === undefined) throw new Error(`no section ${id}`);
  const body = /<tbody>(.*?)<\/tbody>/s.exec(section)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map((row) =>
    [...(row[1] as string).matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) =>
      (cell[1] as string).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
    ),
  );
}

function caption(html: string, id: string): string {
  const section = new RegExp(`<section class="block table" id="${id}">(.*?)</section>`, 's').exec(html)?.[1] ?? '';
  return /<p class="caption">(.*?)<\/p>/s.exec(section)?.[1] ?? '';
}

describe('muster card: a rule with choices', () => {
  it('a d6 kept or rolled again, worked by hand: keep 4–6, roll again on 1–3, 3/4, +25 pp over either fixed play', async () => {
    const file = join(folder, 'keep-or-reroll.mjs');
    writeFileSync(file, KEEP_OR_REROLL);
    const out = join(folder, 'keep.html');
    await cardCommand(file, { out, quiet: true }, bufferIo());
    const html = readFileSync(out, 'utf8');
    // The label is data: escaped on the sheet, read back whole.
    expect(html).toContain('face &lt;b&gt;1&lt;/b&gt;');
    expect(html).not.toContain('<b>1</b>');
    const rows = tableRows(html, 'best-play');
    // Keeping face f wins for sure when f ≥ 4, never below; rolling again wins 3/6 whatever f was.
    const expected = [1, 2, 3, 4, 5, 6].map((face) => [
      `face <b>${face}</b>`,
      face >= 4 ? '100%' : '0%',
      '50.00%',
      face >= 4 ? 'keep' : 'reroll',
    ]);
    expect(rows.sort()).toEqual(expected.sort());
    // Best: 3/6 · 1 + 3/6 · 1/2 = 3/4; always keep = always roll again = 1/2.
    const text = caption(html, 'best-play');
    expect(text).toContain('four.up is 75.00% = 3/4');
    expect(text).toContain('+25.00 pp over always the first option offered (50.00%)');
    expect(text).toContain('+25.00 pp over always the last (50.00%)');
  });

  it(`rolloff-token: its 121 decision states cut to the first ${CARD_POLICY_ROWS}, with the command that lists them all`, async () => {
    const out = join(folder, 'token.html');
    await cardCommand(join(examples, 'rolloff-token.mjs'), { out, quiet: true }, bufferIo());
    const html = readFileSync(out, 'utf8');
    const rows = tableRows(html, 'best-play');
    expect(rows).toHaveLength(CARD_POLICY_ROWS);
    // Ahead, keeping wins outright: 100% in the keep column, and keep taken.
    for (const row of rows) {
      const [, a, b] = /A (\d+) vs B (\d+)/.exec(row[0]) ?? [];
      if (Number(a) > Number(b)) expect(row.slice(1), row[0]).toEqual(['100%', expect.any(String), 'keep']);
      if (Number(a) < Number(b)) expect(row[3], row[0]).toBe('reroll');
    }
    expect(caption(html, 'best-play')).toContain(
      `The first ${CARD_POLICY_ROWS} of 121 decision states, in the order play reaches them: muster run `,
    );
    expect(caption(html, 'best-play')).toContain('--exact --all lists every one.');
  });

  it('--objective plays for another metric, as in muster run', async () => {
    const out = join(folder, 'pig.html');
    await cardCommand(
      join(examples, 'push-your-luck.mjs'),
      { out, quiet: true, objective: 'goal.reached', set: ['cap=24'] },
      bufferIo(),
    );
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Best play for goal.reached: what to choose');
    expect(html).toContain('objective=goal.reached');
  });
});

describe('muster card reserves --set chosenRound=call', () => {
  const set = ['chosenRound=call', 'command=4', 'fallbackCommand=1', 'leaderLoss=0.2'];

  it('every round declared before the game as reserves.exact gives it, the call as the rule-file port solves it', async () => {
    const out = join(folder, 'call.html');
    await cardCommand('reserves', { out, quiet: true, set }, bufferIo());
    const html = readFileSync(out, 'utf8');
    const fixed = tableRows(html, 'call-fixed');
    const exactOf = reserves.exact!.values as (p: object) => Record<string, Fraction>;
    const base = resolveParams(reserves as never, ['command=4', 'fallbackCommand=1', 'leaderLoss=0.2']);
    for (const chosenRound of [0, 1, 2, 3, 4]) {
      const value = exactOf({ ...base, chosenRound })['all.by.4'];
      const row = fixed.find((cells) => cells[0] === (chosenRound === 0 ? 'none' : `round ${chosenRound}`));
      expect(row?.[1], `chosenRound ${chosenRound}`).toBe(`${value.toNumber().toFixed(6)} = ${value.toString()}`);
    }
    // The call, by the port (states enumerated, best play by policy iteration: no code shared with the built-in).
    const port = adaptRuleFile(
      ((await import(join(examples, 'reserves-call-steps.mjs'))) as { default: object }).default,
      'reserves-call-steps.mjs',
    );
    const params = resolveParams(port, ['command=4', 'fallbackCommand=1', 'leaderLoss=0.2', 'objective=all.by.4']);
    const solved = (port.exact!.decisions as (p: object) => RuleDecisions)(params);
    expect(fixed.at(-1)).toEqual([
      'called in play',
      `${solved.value.toNumber().toFixed(6)} = ${solved.value.toString()}`,
      'best play',
    ]);
    // Every decision the port reaches, with its choice.
    const decisions = tableRows(html, 'call-policy');
    expect(decisions).toHaveLength(solved.policy.length);
    for (const entry of solved.policy) {
      const state = entry.state as { round: number; out: number; alive: boolean };
      const row = decisions.find(
        (cells) =>
          cells[0] === String(state.round) &&
          cells[1] === String(state.out) &&
          cells[2] === (state.alive ? 'alive' : 'lost'),
      );
      expect(row?.[6], entry.label).toBe(entry.choice);
    }
    expect(html).toContain('With the commander alive: round 1: wait; round 2: call, whatever is still out.');
    expect(html).toContain('muster card reserves --set chosenRound=call --set command=4');
  });

  for (const [what, extra] of [
    ['--trials', { trials: '1000' }],
    ['--range', { range: '2..4' }],
  ] as const) {
    it(`${what}: refused in one line, exit 2, nothing written`, async () => {
      const out = join(folder, `refused-${what.slice(2)}.html`);
      const io = bufferIo();
      const flag = Object.entries(extra).flatMap(([key, value]) => [`--${key}`, value]);
      const code = await main(['card', 'reserves', '--set', 'chosenRound=call', ...flag, '--out', out], io);
      expect(code).toBe(2);
      expect(io.stderr().trim().split('\n')).toHaveLength(1);
      expect(io.stderr()).toContain(what);
      expect(existsSync(out)).toBe(false);
    });
  }
});

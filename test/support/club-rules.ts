/**
 * Two designer's rule files, as a club would write them, for `muster app
 * --rule`: written by the tests into a temporary folder outside the
 * repository, so the page bundles them by their absolute paths.
 *
 * - club-reserves.mjs has exact(); it imports a helper module beside it (a
 *   rule file's own imports are bundled too). Its exact answer by hand: with
 *   target 9, a squad misses round r when 2d6 + r < 9, i.e. 2d6 ≤ 8 − r:
 *   21, 15, 10, 6 of the 36 ways for r = 1..4, so one squad is lost with
 *   probability 21·15·10·6 / 36⁴ = 18900 / 1679616 (CLUB_LOST_ONE).
 * - club-rolloff.mjs has no exact(): the page simulates it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One squad, target 9: the chance it is lost, worked by hand above. */
export const CLUB_LOST_ONE = 18900 / 1679616;

export const CLUB_HELPER = `// dice-helper.mjs — shared by the club's rule files
export const twoDice = (dice) => dice.d(6) + dice.d(6);
`;

/**
 * club-reserves.mjs: the documentation's example rule file
 * (examples/rules/reserves-2d6.mjs) as the club adopted it, under its own
 * id, title and source, rolling 2d6 through the shared helper. Each change
 * must apply, so the two files cannot drift apart unnoticed.
 */
export const CLUB_RESERVES = [
  [
    '// reserves-2d6.mjs — reserves arrive on 2d6 + round instead of 1d6 + round\n',
    "// club-reserves.mjs — reserves arrive on 2d6 + round\nimport { twoDice } from './dice-helper.mjs';\n\n",
  ],
  ["id: 'reserves-2d6'", "id: 'club-reserves'"],
  ["title: 'Reserves on 2d6'", "title: 'Club reserves on 2d6'"],
  ["source: 'our house rules, draft 3, §4 Reserves'", "source: 'the club’s house rules, draft 3, §4 Reserves'"],
  ['dice.d(6) + dice.d(6)', 'twoDice(dice)'],
].reduce(
  (text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`club-reserves: the example no longer has ${JSON.stringify(from)}`);
    return text.replace(from, to);
  },
  readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8'),
);

export const CLUB_ROLLOFF = `// club-rolloff.mjs — a first-turn roll-off on 2d6, ties roll again
export default {
  id: 'club-rolloff',
  title: 'Club roll-off on 2d6',
  summary: 'each player rolls 2d6, player A adds a bonus; equal totals roll again',
  source: 'the club’s house rules, draft 3, §2 First turn',
  params: [{ name: 'bonusA', type: 'integer', default: 0, min: -3, max: 3, doc: "added to player A's roll" }],
  metrics: [
    { name: 'a.wins', doc: 'player A wins the roll-off', probability: true },
    { name: 'rolls.mean', doc: 'roll-offs until one player wins', probability: false },
  ],
  trial(dice, p, out) {
    let rolls = 0;
    for (;;) {
      rolls++;
      const a = dice.d(6) + dice.d(6) + p.bonusA;
      const b = dice.d(6) + dice.d(6);
      if (a !== b) {
        out['a.wins'] = a > b;
        break;
      }
    }
    out['rolls.mean'] = rolls;
  },
};
`;

/** Writes the helper and both rule files into `folder`; returns the rule files' paths. */
export function writeClubRules(folder: string): { reserves: string; rolloff: string } {
  writeFileSync(join(folder, 'dice-helper.mjs'), CLUB_HELPER);
  const reserves = join(folder, 'club-reserves.mjs');
  const rolloff = join(folder, 'club-rolloff.mjs');
  writeFileSync(reserves, CLUB_RESERVES);
  writeFileSync(rolloff, CLUB_ROLLOFF);
  return { reserves, rolloff };
}

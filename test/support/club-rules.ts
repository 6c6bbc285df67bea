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
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One squad, target 9: the chance it is lost, worked by hand above. */
export const CLUB_LOST_ONE = 18900 / 1679616;

export const CLUB_HELPER = `// dice-helper.mjs — shared by the club's rule files
export const twoDice = (dice) => dice.d(6) + dice.d(6);
`;

export const CLUB_RESERVES = `// club-reserves.mjs — reserves arrive on 2d6 + round
import { twoDice } from './dice-helper.mjs';

export default {
  id: 'club-reserves',
  title: 'Club reserves on 2d6',
  summary: 'each squad in reserve arrives on 2d6 + round ≥ target; four rounds, then it is lost',
  source: 'the club’s house rules, draft 3, §4 Reserves',
  params: [
    { name: 'squads', type: 'integer', default: 3, min: 1, max: 12, doc: 'squads held in reserve' },
    { name: 'target', type: 'integer', default: 10, min: 2, max: 16, doc: 'a squad arrives when 2d6 + round reaches this' },
  ],
  metrics: [
    { name: 'all.by.4', doc: 'every squad has arrived by the end of round 4', probability: true },
    { name: 'lost.mean', doc: 'expected squads lost', probability: false },
  ],
  trial(dice, p, out) {
    let lost = 0;
    for (let squad = 0; squad < p.squads; squad++) {
      let arrived = false;
      for (let round = 1; round <= 4 && !arrived; round++) arrived = twoDice(dice) + round >= p.target;
      if (!arrived) lost++;
    }
    out['all.by.4'] = lost === 0;
    out['lost.mean'] = lost;
  },
  exact(p) {
    let miss = 1n;
    let all = 1n;
    for (let round = 1; round <= 4; round++) {
      let ways = 0n;
      for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + round < p.target) ways++;
      miss *= ways;
      all *= 36n;
    }
    const squads = BigInt(p.squads);
    return { 'all.by.4': \`\${(all - miss) ** squads}/\${all ** squads}\`, 'lost.mean': \`\${squads * miss}/\${all}\` };
  },
};
`;

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

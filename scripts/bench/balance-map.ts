/**
 * Issue 36's (and issue 38's) target, measured: a 2-parameter, 400-point exact balance map of a step-form rule
 * file under 5 seconds. The rule is examples/rules/infinity-steps.mjs (the Infinity N4 Initiative Roll written as a
 * chain of states, with no exact() of its own): wipA and wipB each 1..20, a.wins brought nearest 50%, every point
 * solved by enumerating the step's 400 pairs of faces and the loop of repeated rolls (src/exact/), as
 * `muster balance examples/rules/infinity-steps.mjs --vary wipA=1..20 --vary wipB=1..20 --metric a.wins --target 50%`
 * does. icepool's 400-cell sweep of one face-to-face grid takes 35–42 s on this machine, with nothing shared
 * between cells.
 *
 * One module for the measurement, so `npm run bench:balance` (its own table) and `npm run bench:enumeration` (one
 * verdict among issue 38's) time the same thing. CPU time of this process: a busy machine's wall clock says little.
 */
import { fileURLToPath } from 'node:url';
import { planBalance } from '../../src/analysis/balance.js';
import { evaluateBalance } from '../../src/analysis/sweep-evaluate.js';
import { loadRuleFile } from '../../src/rule-files/load.js';
import { resolveParams } from '../../src/rules/params.js';

/** Issue 36: the 400-point map in under this many seconds. */
export const BALANCE_TARGET_SECONDS = 5;
export const BALANCE_LABEL = 'infinity-steps.mjs, wipA × wipB 1..20';
const FILE = fileURLToPath(new URL('../../../examples/rules/infinity-steps.mjs', import.meta.url));

export interface BalanceMeasure {
  /** CPU seconds of the whole balance: planned, every point solved, answered. */
  map: number;
  /** CPU seconds of one point (WIP 13 against 15) solved on a rule file loaded afresh. */
  one: number;
  points: number;
  nearest: number;
}

async function cpuSeconds<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(started);
  return { seconds: (used.user + used.system) / 1e6, value };
}

/** One point, then the map, each on a fresh load of the file (a rule keeps what it enumerated). */
export async function measureBalanceMap(): Promise<BalanceMeasure> {
  const single = await loadRuleFile(FILE);
  const one = await cpuSeconds(async () => single.exact?.values(resolveParams(single, ['wipA=13', 'wipB=15'])));
  const rule = await loadRuleFile(FILE);
  const map = await cpuSeconds(() =>
    evaluateBalance(
      planBalance(rule, { vary: ['wipA=1..20', 'wipB=1..20'], metric: 'a.wins', target: '50%', exact: true }),
    ),
  );
  const result = map.value;
  if (result.method !== 'exact' || result.points.length !== 400) throw new Error('the bench did not solve 400 points');
  return { map: map.seconds, one: one.seconds, points: result.points.length, nearest: result.balance.nearest.length };
}

/**
 * `npm run bench`: the reserves rule at its defaults, measured in one
 * invocation against baselines run alongside it, so only ratios matter:
 *
 *   raw d6/s     a bare loop summing dice from the same generator the engine uses
 *   1 thread     trials/s through the pool with one worker
 *   all threads  trials/s with every core; speed-up = all ÷ 1
 *   efficiency   (d6 the rule consumed per second on 1 thread) ÷ raw d6/s
 *   numpy        the same rule vectorised in numpy (reserves_numpy.py);
 *                ratio = muster on 1 thread ÷ numpy
 *   rule file    the same rule written as a rule file (examples/rules/reserves.mjs),
 *                1 thread; ratio = rule file ÷ built-in (target ≥ 0.5)
 *
 * Each figure is the best of three runs (the least disturbed by the machine).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultThreads, SimulationPool } from '../../src/engine/pool.js';
import { chunkStream } from '../../src/engine/random.js';
import { simulate } from '../../src/engine/simulate.js';
import { loadRuleFile } from '../../src/rules/load-rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves.js';
import type { Rule } from '../../src/rules/types.js';

const TRIALS = Number(process.env.BENCH_TRIALS ?? 2e7);
const REPEATS = 3;
const params = resolveParams(reserves);

function rawDiceRate(dice: number): number {
  const rng = chunkStream('bench', 'raw', 0);
  let total = 0;
  const started = performance.now();
  for (let i = 0; i < dice; i++) total += 1 + ((rng() * 6) | 0);
  const seconds = (performance.now() - started) / 1000;
  if (total < dice) throw new Error('unreachable: keeps the loop from being optimised away');
  return dice / seconds;
}

async function ruleRate(threads: number, rule: Rule = reserves): Promise<{ trialsPerSecond: number; dicePerSecond: number }> {
  const pool = new SimulationPool(threads);
  try {
    await simulate(pool, { rule, params, seed: 'warm-up', confidence: 0.95, trials: 2e6 });
    let best = { trialsPerSecond: 0, dicePerSecond: 0 };
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const started = performance.now();
      const outcome = await simulate(pool, { rule, params, seed: `bench-${repeat}`, confidence: 0.95, trials: TRIALS });
      const seconds = (performance.now() - started) / 1000;
      const diceMean = rule.summarize(params, outcome.tally, outcome.trials)['dice.mean'];
      const dice = diceMean.kind === 'mean' ? diceMean.sum : Number.NaN; // every d6 the rule rolled
      if (outcome.trials / seconds > best.trialsPerSecond) best = { trialsPerSecond: outcome.trials / seconds, dicePerSecond: dice / seconds };
    }
    return best;
  } finally {
    await pool.close();
  }
}

/**
 * Trials/s of each rule on one thread, measured turn about (built-in, file,
 * built-in, file, …) so that a busy machine slows both alike; best of each.
 */
async function alternatingRates(rules: readonly Rule[]): Promise<number[]> {
  const pool = new SimulationPool(1);
  try {
    const best = rules.map(() => 0);
    for (const rule of rules) await simulate(pool, { rule, params, seed: 'warm-up', confidence: 0.95, trials: 2e6 });
    for (let repeat = 0; repeat < REPEATS + 2; repeat++) {
      for (const [index, rule] of rules.entries()) {
        const started = performance.now();
        const outcome = await simulate(pool, { rule, params, seed: `bench-${repeat}`, confidence: 0.95, trials: TRIALS });
        best[index] = Math.max(best[index], outcome.trials / ((performance.now() - started) / 1000));
      }
    }
    return best;
  } finally {
    await pool.close();
  }
}

function numpyRate(): { trialsPerSecond: number; numpy: string } | null {
  const script = fileURLToPath(new URL('../../../scripts/bench/reserves_numpy.py', import.meta.url));
  try {
    let best = { trialsPerSecond: 0, numpy: '' };
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const line = execFileSync('python3', [script, String(Math.min(TRIALS, 8e6))], { encoding: 'utf8' });
      const run = JSON.parse(line) as { trialsPerSecond: number; numpy: string };
      if (run.trialsPerSecond > best.trialsPerSecond) best = run;
    }
    return best;
  } catch (error) {
    process.stderr.write(`numpy baseline skipped: ${(error as Error).message.split('\n')[0]}\n`);
    return null;
  }
}

const million = (x: number) => `${(x / 1e6).toFixed(1)}M`;
const threads = defaultThreads();
const raw = Math.max(...Array.from({ length: REPEATS }, () => rawDiceRate(1e8)));
const single = await ruleRate(1);
const all = await ruleRate(threads);
const numpy = numpyRate();
const ruleFile = await loadRuleFile(fileURLToPath(new URL('../../../examples/rules/reserves.mjs', import.meta.url)), 'examples/rules/reserves.mjs');
const pair = await alternatingRates([reserves, ruleFile]);

const rows: [string, string][] = [
  ['raw d6 (bare generator loop)', `${million(raw)} d6/s`],
  ['reserves, 1 thread', `${million(single.trialsPerSecond)} trials/s (${million(single.dicePerSecond)} d6/s)`],
  [`reserves, ${threads} threads`, `${million(all.trialsPerSecond)} trials/s`],
  ['thread speed-up', `${(all.trialsPerSecond / single.trialsPerSecond).toFixed(2)}× (target ≥ 1.8× on 2 cores)`],
  ['efficiency (rule d6/s ÷ raw d6/s)', `${(single.dicePerSecond / raw).toFixed(2)} (target ≥ 0.5)`],
];
if (numpy) {
  rows.push([`numpy ${numpy.numpy} vectorised, 1 process`, `${million(numpy.trialsPerSecond)} trials/s`]);
  rows.push(['muster 1 thread ÷ numpy', `${(single.trialsPerSecond / numpy.trialsPerSecond).toFixed(2)}× (target ≥ 2×)`]);
}
rows.push(['reserves as a rule file, 1 thread', `${million(pair[1])} trials/s (examples/rules/reserves.mjs; built-in alongside: ${million(pair[0])})`]);
rows.push(['rule file ÷ built-in, 1 thread', `${(pair[1] / pair[0]).toFixed(2)}× (target ≥ 0.5)`]);
const width = Math.max(...rows.map(([label]) => label.length));
process.stdout.write(`reserves at defaults, ${TRIALS.toExponential(0)} trials a run, best of ${REPEATS}, ${threads} cores\n`);
for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);

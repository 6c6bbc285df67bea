/**
 * One measurement of `npm run bench`, in a process of its own so that no
 * measurement's JIT state (a call site that has seen another rule, another
 * generator) slows the next. Prints one JSON line.
 *
 *   probe.js rule  ROOT RULE THREADS SEED [STREAM]
 *                                           trials/s of a rule (an id, or a rule file's absolute path) at its
 *                                           defaults through the pool, and trials per CPU-second (every thread's
 *                                           time: robust to a busy machine); STREAM 1 or 2 (a build from before
 *                                           streams has only stream 1 and ignores it)
 *   probe.js sweep ROOT THREADS             seconds for 100 points of 65,536 trials, and for one run of as many
 *                                           trials: seven of each turn about on one warm pool, the median of each
 *   probe.js limit GENERATOR                d6 per second and per CPU-second of a bare dice loop
 *   probe.js floor ROOT SEED [STREAM]       CPU nanoseconds a trial of examples/rules/reserves-2d6.mjs through
 *                                           muster's loop and at its floor (its trial by hand, the dice in
 *                                           locals), turn about, and whether the two counted the same (floor.ts)
 *   probe.js cost  ROOT RULE STREAM SEED [name=value …]
 *                                           CPU nanoseconds a trial of a built-in rule at those settings, on this
 *                                           thread (runChunks, as a worker runs it): 0.4 s and 16 chunks at least,
 *                                           after a warm-up
 *
 * ROOT is a built checkout (this one, or a baseline such as a checkout of
 * main): its engine, rules and reports are imported from ROOT/dist, whose
 * `SimulationPool`, `simulate`, `resolveParams`, `getRule` and `evaluateAll`
 * keep the same signatures from release to release (a request's `stream`,
 * added with stream 2, is an extra field older builds ignore).
 */
import { ruleFileFloor } from './floor.js';
import { bareDiceRate, LIMIT_GENERATORS, type LimitGenerator } from './limit.js';
import { loadFromBuild as load } from './load-build.js';

/** Turns of sweep and run a sweep probe times (odd: the middle one is the median). */
const SWEEP_TURNS = 7;
/** Seconds a timed rule run aims for on one thread: long enough to swamp scheduling noise. */
const RUN_SECONDS = 0.6;
const CHUNK = 65_536;
/** CPU seconds a cost probe warms up for, and then measures for, at least. */
const COST_WARM_SECONDS = 0.1;
const COST_SECONDS = 0.4;

async function ruleRate(
  root: string,
  ruleId: string,
  threads: number,
  seed: string,
  stream: number,
): Promise<{ trialsPerSecond: number; trialsPerCpuSecond: number; trials: number }> {
  const [{ SimulationPool }, { simulate }, { getRule }, { resolveParams }] = await Promise.all([
    load(root, 'src/engine/pool.js'),
    load(root, 'src/engine/simulate.js'),
    load(root, 'src/rules/index.js'),
    load(root, 'src/rules/params.js'),
  ]);
  // A path is a rule file (examples/rules/reserves.mjs), loaded as `muster run FILE` loads it.
  const rule = ruleId.includes('/')
    ? await (await load(root, 'src/rule-files/load.js')).loadRuleFile(ruleId)
    : getRule(ruleId);
  const params = resolveParams(rule);
  const pool = new SimulationPool(threads);
  try {
    // Warm-up: starts the workers, compiles the rule in each, and sizes the timed run.
    const warmTrials = 32 * CHUNK;
    const warmStart = performance.now();
    await simulate(pool, { rule, params, seed: `${seed}/warm-up`, stream, confidence: 0.95, trials: warmTrials });
    const warmRate = warmTrials / ((performance.now() - warmStart) / 1000);
    const trials = Math.max(32, Math.round((warmRate * RUN_SECONDS) / CHUNK)) * CHUNK;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await simulate(pool, { rule, params, seed, stream, confidence: 0.95, trials });
    const { user, system } = process.cpuUsage(cpu);
    return {
      trialsPerSecond: trials / ((performance.now() - started) / 1000),
      trialsPerCpuSecond: trials / ((user + system) / 1e6),
      trials,
    };
  } finally {
    await pool.close();
  }
}

/**
 * A sweep of 100 reserves points of one chunk each against one run of as
 * many trials, on the same warm pool. Every point varies leaderLoss with no
 * chosen round, which changes no die, so both do the same work.
 */
async function sweepOverhead(root: string, threads: number): Promise<{ sweepSeconds: number; runSeconds: number }> {
  const [{ SimulationPool }, { simulate }, { getRule }, { resolveParams }, { evaluateAll }] = await Promise.all([
    load(root, 'src/engine/pool.js'),
    load(root, 'src/engine/simulate.js'),
    load(root, 'src/rules/index.js'),
    load(root, 'src/rules/params.js'),
    // Where evaluateAll lives: src/analysis/ now, reports/ in builds before it moved (a probe may measure either).
    load(root, 'src/analysis/evaluate.js').catch(() => load(root, 'reports/evaluate.js')),
  ]);
  const rule = getRule('reserves');
  const points = Array.from({ length: 100 }, (_, i) => resolveParams(rule, [], { leaderLoss: i / 100 }));
  const settings = { method: 'simulation', seed: 'bench', stream: 3, confidence: 0.95, trials: CHUNK, threads };
  const pool = new SimulationPool(threads);
  try {
    await simulate(pool, { rule, params: points[0], seed: 'warm-up', stream: 3, confidence: 0.95, trials: 64 * CHUNK });
    await evaluateAll(rule, points.slice(0, 20), settings, { pool });
    // Sweeps and runs taken turn about (a busy machine slows both alike), each the median of its seven: one
    // turn of either takes a tenth of a second, and on a shared machine single turns ranged over half again.
    const sweeps: number[] = [];
    const runs: number[] = [];
    for (let turn = 0; turn < SWEEP_TURNS; turn++) {
      let started = performance.now();
      await evaluateAll(rule, points, { ...settings, seed: `bench/${turn}` }, { pool });
      sweeps.push((performance.now() - started) / 1000);
      started = performance.now();
      await simulate(pool, {
        rule,
        params: points[0],
        seed: `bench/${turn}`,
        stream: 3,
        confidence: 0.95,
        trials: 100 * CHUNK,
      });
      runs.push((performance.now() - started) / 1000);
    }
    const middle = (list: number[]) => list.sort((a, b) => a - b)[(SWEEP_TURNS - 1) / 2];
    return { sweepSeconds: middle(sweeps), runSeconds: middle(runs) };
  } finally {
    await pool.close();
  }
}

/**
 * CPU time a trial of `ruleId` at `set` takes in this thread: a warm-up of at least two chunks and COST_WARM_SECONDS,
 * then at least 16 chunks and COST_SECONDS. A cheap setting's 16 chunks are a few milliseconds, in which the
 * compiler's and the collector's own threads (counted in the process's CPU time) weigh as much as the rule.
 */
async function trialCost(
  root: string,
  ruleId: string,
  stream: number,
  seed: string,
  set: string[],
): Promise<{ nsPerTrial: number }> {
  const [{ runChunks }, { getRule }, { resolveParams }] = await Promise.all([
    load(root, 'src/engine/run-chunks.js'),
    load(root, 'src/rules/index.js'),
    load(root, 'src/rules/params.js'),
  ]);
  const rule = getRule(ruleId);
  const params = resolveParams(rule, set);
  const task = (name: string, chunks: number) => ({
    ruleId,
    params,
    seed: name,
    stream,
    firstChunk: 0,
    endChunk: chunks,
    totalTrials: chunks * CHUNK,
  });
  let warmChunks = 0;
  const warmCpu = process.cpuUsage();
  let warmSeconds = 0;
  while (warmChunks < 2 || warmSeconds < COST_WARM_SECONDS) {
    runChunks(task(`${seed}/warm-up/${warmChunks}`, 1), rule);
    warmChunks++;
    const { user, system } = process.cpuUsage(warmCpu);
    warmSeconds = (user + system) / 1e6;
  }
  const chunks = Math.max(16, Math.ceil((COST_SECONDS * warmChunks) / warmSeconds));
  const cpu = process.cpuUsage();
  runChunks(task(seed, chunks), rule);
  const { user, system } = process.cpuUsage(cpu);
  return { nsPerTrial: ((user + system) * 1000) / (chunks * CHUNK) };
}

const [kind, ...args] = process.argv.slice(2);
let answer: unknown;
if (kind === 'rule') answer = await ruleRate(args[0], args[1], Number(args[2]), args[3], Number(args[4] ?? 2));
else if (kind === 'cost') answer = await trialCost(args[0], args[1], Number(args[2]), args[3], args.slice(4));
else if (kind === 'floor') answer = await ruleFileFloor(args[0], args[1], Number(args[2] ?? 5));
else if (kind === 'sweep') answer = await sweepOverhead(args[0], Number(args[1]));
else if (kind === 'limit' && LIMIT_GENERATORS.includes(args[0] as LimitGenerator))
  answer = bareDiceRate(args[0] as LimitGenerator);
else throw new Error(`probe: unknown measurement ${JSON.stringify(process.argv.slice(2))}`);
process.stdout.write(`${JSON.stringify(answer)}\n`);

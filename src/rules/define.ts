/**
 * One contract for a built-in rule, as a rule file has one (docs/custom-rules.md):
 *
 *   params   declared once; every other member receives them typed (`p.squads` is a number, `p.compare`
 *            one of its choices), checked by resolveParams before any of them runs
 *   validate returns what is wrong as a string, or nothing, as a rule file's does; the helper throws it
 *            as the UsageError the CLI prints (exit 2)
 *   trial    one game's procedure, die by die, as the rule text reads: it writes each metric's value of
 *            the trial into `out` (1/0 for a probability, any number for a mean)
 *   simulate the hand-tuned fast path the engine runs; test/rules/fast-paths.test.ts holds it equal in
 *            distribution to `trial`
 *   tally    how the fast path counts. By default one slot a probability (the trials where it held) and
 *            two a mean (the sum and the sum of squares of its values), in the order `tallyOrder` lists
 *            (metrics() order unless given): the helper derives the offsets it hands to `simulate`, the
 *            tally's length and summarize() from that one list, so they cannot disagree. A rule whose
 *            fast path counts outcomes instead (a histogram every metric is read off) gives
 *            `tally: { length, summarize, check }` itself.
 *
 * The result is a plain `Rule` (contract/types.ts): the engine, reports and CLI see no difference. The spec is
 * written flat, each member beside what it reads; the helper puts each in the Rule's group: simulate and the tally
 * into `tally`, exact and exactDistributions into `exact` (values, distributions), headline, readings and matrix
 * into `presentation`. src/rules/rolloff.ts is the template (docs/architecture.md).
 */

import type { Dice } from '../contract/dice.js';
import type {
  DistributionSpec,
  MatrixSpec,
  MetricSpec,
  ParamSpec,
  Params,
  Reading,
  Rng,
  Rule,
  RuleExact,
  RulePresentation,
} from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { ExactDistribution } from '../exact/exact-distribution.js';
import { DISTRIBUTION_DEPTH } from '../exact/exact-distribution.js';
import type { Fraction } from '../exact/fraction.js';
import { keyedRecord } from '../keyed.js';
import { mean, proportion, type Tallied } from '../stats/estimate.js';

/** The value a parameter of this spec holds after parsing: a choice narrows to its choices. */
type ValueOf<S extends ParamSpec> = S extends { type: 'integer' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'choice'; choices: readonly (infer C extends string)[] }
      ? C
      : string;

/** The typed parameters of a rule declaring `S`: one field a spec, named as the spec names it. */
export type ParamsOf<S extends readonly ParamSpec[]> = { readonly [K in S[number] as K['name']]: ValueOf<K> };

/**
 * Where the fast path counts each metric: `at[name]` is the slot of a probability's count, or of a mean's sum
 * (its sum of squares in the next slot). Only for the rule's own metric names, never a user's text.
 */
export type Slots = Readonly<Record<string, number>>;

/**
 * A trial's metric values, written by name. A metric a trial leaves unwritten is not observed in that trial
 * (fow's share of arrivals entering a place, in a battle where none arrives); the built-ins write every
 * other metric in every trial.
 */
export type TrialOut = Record<string, number>;

/** A fast path that counts outcomes, not metrics: its own tally, and how every metric is read off it. */
interface OwnTally<P> {
  length(p: P): number;
  summarize(p: P, tally: Float64Array, trials: number): Record<string, Tallied>;
  /** See RuleTally.check. */
  check?(p: P, tally: Float64Array, trials: number): string | null;
}

interface BuiltinSpec<S extends readonly ParamSpec[], P = ParamsOf<S>> {
  id: string;
  title: string;
  summary: string;
  source: string;
  params: S;
  resolve?(p: P): P;
  validate?(p: P): string | undefined;
  metrics(p: P): MetricSpec[];
  headline?(p: P): string[];
  readings?(p: P): Reading[];
  trial(dice: Dice, p: P, out: TrialOut): void;
  /** Metric names in tally order, when it is not metrics() order (a layout kept for shards already written). */
  tallyOrder?(p: P): readonly string[];
  tally?: OwnTally<P>;
  simulate(p: P, rng: Rng, trials: number, tally: Float64Array, at: Slots): void;
  exact?(p: P): Record<string, Fraction>;
  /** Each distribution metric's exact distribution (its mean is its entry in exact). */
  exactDistributions?(p: P): Record<string, ExactDistribution>;
  matrix?: MatrixSpec;
}

/** A built-in rule: a `Rule`, the trial its fast path is held to, and its params read typed. */
export interface Builtin<P = unknown> extends Rule {
  trial(dice: Dice, params: Params, out: TrialOut): void;
  /** The params typed, after checking that each declared one is there with its type (a miss is muster's bug). */
  read(params: Params): P;
}

const KIND: Record<ParamSpec['type'], string> = {
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  choice: 'string',
  text: 'string',
};

/**
 * The tally layout of a rule that counts its metrics: a slot for a probability, a sum and a square for a mean, and
 * for a distribution a mean's two, then its histogram (histogramOf): one count a value from its min to its max, or
 * without a max DISTRIBUTION_DEPTH values and one count of the trials beyond them.
 */
export function slotsOf(metrics: readonly MetricSpec[], order: readonly string[] = metrics.map((m) => m.name)) {
  const byName = new Map(metrics.map((m) => [m.name, m]));
  const at: Record<string, number> = keyedRecord();
  let length = 0;
  for (const name of order) {
    if (name in at) throw new Error(`tally order names ${name} twice`);
    at[name] = length;
    // A name the metrics do not list at these params keeps its slot (a count that stays 0), so the layout holds.
    length += byName.get(name)?.probability === false ? 2 : 1;
  }
  // Histograms come after every other slot, so a rule whose mean became a distribution keeps the layout it had.
  for (const name of order) {
    const metric = byName.get(name);
    if (!metric?.distribution) continue;
    at[histogramKey(name)] = length;
    length += histogramLength(metric);
  }
  for (const metric of metrics) if (!(metric.name in at)) throw new Error(`tally order leaves out ${metric.name}`);
  return { at: at as Slots, length };
}

/** Entries a distribution's histogram takes (0 for any other metric). */
function histogramLength(metric: MetricSpec): number {
  const range = metric.distribution;
  if (!range) return 0;
  return range.max === null ? DISTRIBUTION_DEPTH + 1 : range.max - range.min + 1;
}

/** The slot of a distribution's histogram in Slots: a key no metric of a built-in has (names have no space). */
const histogramKey = (name: string) => `histogram of ${name}`;

/**
 * Where a distribution's counts lie: value v is counted at `at + v − min` for v up to `top`, and the trials above
 * `top` at `beyond` (−1 when the range has a max, so nothing lies above it). A fast path counts
 * `tally[v > top ? beyond : at + v − min]++`.
 */
export function histogramOf(
  metric: MetricSpec,
  slots: Slots,
): { at: number; top: number; beyond: number; min: number } {
  const range = metric.distribution as DistributionSpec;
  const top = range.max ?? range.min + DISTRIBUTION_DEPTH - 1;
  const at = slots[histogramKey(metric.name)];
  return { at, top, beyond: range.max === null ? at + top - range.min + 1 : -1, min: range.min };
}

/** Null when every distribution's histogram counts each trial once, else what is wrong (a tally read from a file). */
function checkHistograms(metrics: readonly MetricSpec[], at: Slots, tally: Float64Array, trials: number) {
  for (const metric of metrics) {
    if (!metric.distribution) continue;
    const histogram = histogramOf(metric, at);
    const end = histogram.beyond >= 0 ? histogram.beyond + 1 : histogram.at + histogram.top - histogram.min + 1;
    let sum = 0;
    for (let entry = histogram.at; entry < end; entry++) sum += tally[entry];
    if (sum !== trials) return `${metric.name}: its histogram counts ${sum} trials, not the ${trials} run`;
  }
  return null;
}

/**
 * A rule's own summarize must read every metric and no other: a disagreement is muster's bug, said at once
 * (exit 1) rather than left as a missing or stray figure.
 */
function checkedSummary(id: string, metrics: readonly MetricSpec[], read: Record<string, Tallied>) {
  const missing = metrics.filter((metric) => !Object.hasOwn(read, metric.name)).map((metric) => metric.name);
  const names = new Set(metrics.map((metric) => metric.name));
  const stray = Object.keys(read).filter((name) => !names.has(name));
  const problems = [...missing.map((name) => `no ${name}`), ...stray.map((name) => `${name}, not a metric`)];
  if (problems.length > 0) throw new Error(`${id}: summarize reads ${problems.join(', ')}`);
  return read;
}

/** No slots: the fast path of a rule with its own tally gets these, and any read is a bug. */
const NO_SLOTS: Slots = new Proxy(keyedRecord<number>(), {
  get(_target, name) {
    throw new Error(`this rule counts outcomes: it has no slot for ${String(name)}`);
  },
});

/**
 * Declares a built-in rule. The params reach every member typed: resolveParams (params.ts) has filled and parsed
 * every declared parameter before any of them is called, and `read` checks each one's type before the one cast.
 */
export function defineBuiltin<const S extends readonly ParamSpec[]>(spec: BuiltinSpec<S>): Builtin<ParamsOf<S>> {
  type P = ParamsOf<S>;
  const typed = (params: Params): P => {
    for (const param of spec.params)
      if (typeof params[param.name] !== KIND[param.type])
        throw new Error(`${spec.id}: parameter ${param.name} is ${JSON.stringify(params[param.name])}, not resolved`);
    return params as unknown as P;
  };
  const layout = (p: P) => slotsOf(spec.metrics(p), spec.tallyOrder?.(p));
  const own = spec.tally;
  const rule: Builtin<P> = {
    id: spec.id,
    title: spec.title,
    summary: spec.summary,
    source: spec.source,
    params: spec.params,
    metrics: (params) => spec.metrics(typed(params)),
    tally: {
      length: (params) => (own ? own.length(typed(params)) : layout(typed(params)).length),
      simulate(params, rng, trials, tally) {
        const p = typed(params);
        spec.simulate(p, rng, trials, tally, own ? NO_SLOTS : layout(p).at);
      },
      summarize(params, tally, trials) {
        const p = typed(params);
        if (own) return checkedSummary(spec.id, spec.metrics(p), own.summarize(p, tally, trials));
        const { at } = layout(p);
        const result: Record<string, Tallied> = keyedRecord();
        for (const metric of spec.metrics(p)) {
          const slot = at[metric.name];
          const counted = metric.probability
            ? proportion(tally[slot], trials)
            : mean(tally[slot], tally[slot + 1], trials);
          if (metric.distribution && counted.kind === 'mean') {
            const histogram = histogramOf(metric, at);
            counted.histogram = {
              min: histogram.min,
              counts: tally.subarray(histogram.at, histogram.at + histogram.top - histogram.min + 1),
              beyond: histogram.beyond >= 0 ? tally[histogram.beyond] : null,
            };
          }
          result[metric.name] = counted;
        }
        return result;
      },
    },
    trial: (dice, params, out) => spec.trial(dice, typed(params), out),
    read: typed,
  };
  if (spec.resolve) {
    const resolve = spec.resolve;
    rule.resolve = (params) => ({ ...params, ...(resolve(typed(params)) as Params) });
  }
  if (spec.validate) {
    const validate = spec.validate;
    rule.validate = (params) => {
      const problem = validate(typed(params));
      if (problem !== undefined) throw new UsageError(problem);
    };
  }
  if (own?.check) rule.tally.check = (params, tally, trials) => own.check!(typed(params), tally, trials);
  else if (!own)
    rule.tally.check = (params, tally, trials) => {
      const p = typed(params);
      return checkHistograms(spec.metrics(p), layout(p).at, tally, trials);
    };
  if (spec.exact) {
    const exact: RuleExact = { values: (params) => spec.exact!(typed(params)) };
    if (spec.exactDistributions) exact.distributions = (params) => spec.exactDistributions!(typed(params));
    rule.exact = exact;
  }
  if (spec.headline || spec.readings || spec.matrix) {
    const presentation: RulePresentation = {};
    if (spec.headline) presentation.headline = (params) => spec.headline!(typed(params));
    if (spec.readings) presentation.readings = (params) => spec.readings!(typed(params));
    if (spec.matrix) presentation.matrix = spec.matrix;
    rule.presentation = presentation;
  }
  return rule;
}

import type { ExactDistribution } from '../exact/exact-distribution.js';
import type { Fraction } from '../exact/fraction.js';
import type { Tallied } from '../stats/estimate.js';
import type { Presentation } from './presentation.js';

import type { Params, ParamValue } from './values.js';

export type { Params, ParamValue } from './values.js';

/**
 * Which random stream a run draws from (see engine/random.ts). Stream 1 is
 * tyche-i, one uniform a die, as every result before stream 2 was made; it
 * stays for reproducing those numbers. Stream 2 is xoshiro128** with dice
 * rolled several to a draw, exactly uniform. Stream 3 is stream 2's
 * generator and dice, with fow drawing several turns of a side's reserve
 * dice at once (rules/fow/plan.ts); every other rule draws on it exactly
 * as on stream 2. Stream 4 is stream 3 with reserves' dice four to a draw at
 * every size; stream 5 is stream 4 with infinity, deployment and warbands
 * reading their dice several to a draw. Results, shards and checkpoints
 * record it; merge refuses to mix them.
 */
export type StreamVersion = 1 | 2 | 3 | 4 | 5;

/**
 * A chunk's random stream. Called, it is a uniform on [0, 1) with 32-bit
 * resolution; a die is then `1 + ((rng() * 6) | 0)` (what `roll(6)` is),
 * each face within 2^-32 of 1/6, far below what any run here can detect.
 * `count` and `below` roll several dice at once: on streams 2 to 5 exactly
 * uniform, up to four d6 to a draw, several times faster than a die at a
 * time; on stream 1 one uniform a die, in order, so a rule moved onto them
 * counts on stream 1 exactly what it counted before.
 */
export interface Rng {
  (): number;
  readonly stream: StreamVersion;
  /** One die of `sides` faces (1 to 4096): 1 + ⌊sides·u⌋ of the next uniform u, on either stream. */
  roll(sides: number): number;
  /** Rolls `n` dice of `sides` faces (1 to 4096) and returns how many show `atLeast` or more. */
  count(n: number, sides: number, atLeast: number): number;
  /**
   * A whole number uniform on [0, bound), bound 1 to 4096: several dice
   * from one draw. `below(6 ** 4)` is four d6 read as base-6 digits (die i,
   * from 0, shows 1 + ⌊v / 6^i⌋ mod 6), so a rule can look up what a
   * squad's four dice do in one table.
   */
  below(bound: number): number;
}

interface ParamBase {
  name: string;
  /** One line: what the parameter means, and why the default was chosen where the rule text is silent. */
  doc: string;
}

export type ParamSpec =
  | (ParamBase & { type: 'integer'; default: number; min: number; max: number })
  | (ParamBase & { type: 'number'; default: number; min: number; max: number })
  | (ParamBase & { type: 'boolean'; default: boolean })
  | (ParamBase & { type: 'choice'; default: string; choices: readonly string[] })
  | (ParamBase & {
      type: 'text';
      default: string;
      /** How an allowed value looks, for help and error messages. */
      allowed: string;
      /** Returns the canonical form, or throws a UsageError naming the parameter. */
      parse: (raw: string) => string;
    });

export interface MetricSpec {
  name: string;
  doc: string;
  /**
   * Words for chart axes, legends and column titles ("player A wins"); the name is used where absent. Ids stay in
   * tables and JSON.
   */
  label?: string;
  /** Probabilities get Wilson intervals, count towards --precision, and print as percentages. */
  probability: boolean;
  /**
   * A distribution (probability false): each trial's value is a whole number, and every output shows its whole
   * distribution beside its mean, which is the metric's value wherever one number is asked for.
   */
  distribution?: DistributionSpec;
}

/**
 * The values a distribution metric may take: whole numbers from `min` to `max`, or from `min` up without end
 * (`max` null), when its histogram lists `depth` values from `min` and counts the rest as one "beyond".
 */
export interface DistributionSpec {
  min: number;
  max: number | null;
}

/** A two-parameter table of one or more metrics: the printable matrices players ask for. */
export interface MatrixSpec {
  /** Parameter varied down the rows and across the columns. */
  row: string;
  col: string;
  /** Metrics tabulated, the first being the headline table. */
  metrics: readonly string[];
  /** The values both axes take when no --range is given. */
  defaultValues(params: Params): ParamValue[];
  /** A short axis label for printed tables (the JSON keeps full values); the value itself when absent. */
  label?(value: ParamValue): string;
  /** Parses a --range option into axis values (throws a UsageError naming --range). */
  parseRange?(text: string): ParamValue[];
  /**
   * Metrics (higher is better for the row player) whose trade-off `matrix --against` shows: the
   * rows no other row beats on all of them. The first is the one rows are ranked by. Default: `metrics`' first.
   */
  tradeOff?: readonly string[];
}

/**
 * A reading the rule took where its text is silent or ambiguous, at the
 * current parameters. `describe`, every page and every card list them, so
 * a printed figure says which reading produced it.
 */
export interface Reading {
  /** The parameter whose value selects this reading (`--set param=…` switches it). */
  param: string;
  /** One line in players' words: the reading in force at the current value. */
  text: string;
}

/**
 * One rule system. A module reads top to bottom like the rule text: its
 * parameters, what a trial does, what is counted, the exact answer. Its
 * members come in groups by concern: what the rule is and takes (the flat
 * members), how the hot loop counts (`tally`), its exact answer (`exact`),
 * and how it is shown (`presentation`). src/rules/rolloff.ts is the template
 * for a new built-in (docs/architecture.md).
 */
export interface Rule {
  id: string;
  title: string;
  /** One line for `muster list`. */
  summary: string;
  /** The rule text it implements: game, edition and section, and our summary in docs/rules/. */
  source: string;
  params: readonly ParamSpec[];
  /**
   * Fills parameters whose default depends on others (such as "half the
   * platoons, rounded up"), after --set and before validate, so a result
   * shows the values actually used.
   */
  resolve?(params: Params): Params;
  /** Checks that need more than one parameter (e.g. chosenRound ≤ rounds); throws a UsageError naming the parameter. */
  validate?(params: Params): void;
  metrics(params: Params): MetricSpec[];
  tally: RuleTally;
  exact?: RuleExact;
  presentation?: RulePresentation;
  /**
   * Set for a designer's rule loaded from a rule file (src/rule-files/load.ts): workers and shards load the same file,
   * checked by its hash.
   */
  file?: RuleFile;
}

/**
 * How the hot loop counts, which every rule has: trials add integer counts
 * into a Float64Array (so merging is exact and order-free), and every metric
 * is read off the merged counts. The engine, workers, shards and merge
 * simulate and check through it.
 */
export interface RuleTally {
  /** Length of the Float64Array the hot loop counts into; every entry is an integer count. */
  length(params: Params): number;
  /** Runs `trials` trials with `rng`, adding counts into `tally`. Allocates nothing per trial. */
  simulate(params: Params, rng: Rng, trials: number, tally: Float64Array): void;
  /** Reads every metric off a merged tally. */
  summarize(params: Params, tally: Float64Array, trials: number): Record<string, Tallied>;
  /**
   * Checks a tally read from a file (muster merge) against the structure the hot loop gives it, beyond the generic
   * checks (non-negative integer counts, no proportion above its trials): e.g. a histogram with one count per trial
   * sums to the trials. Returns what is wrong, or null.
   */
  check?(params: Params, tally: Float64Array, trials: number): string | null;
}

/**
 * A rule's exact answer, where the rule admits one: a built-in's own exact(),
 * or for every rule file its own exact() or its dice enumerated (`by`). Absent,
 * a rule is only simulated. `enumerate` and `decisions` come only from a rule
 * file, which always has `values`, so a rule with either has the group.
 */
export interface RuleExact {
  /** Every metric exactly, with the same names (a distribution metric's entry is its mean). */
  values(params: Params): Record<string, Fraction>;
  /** Each distribution metric's exact distribution, by name, where the rule admits it. Throws as values() does. */
  distributions?(params: Params): Record<string, ExactDistribution>;
  /**
   * 'enumeration' where values come from enumerating a rule file's own dice (it has no exact()): then values may
   * throw NotEnumerable (src/exact/replay-dice.ts), a UsageError, at parameters past its budget.
   */
  by?: 'enumeration';
  /**
   * A rule file's exact values by enumeration, whether or not it has exact() (`muster check` compares the two),
   * within `paths` paths (default: the full budget, src/exact/replay-dice.ts).
   */
  enumerate?(params: Params, paths?: number): Record<string, Fraction>;
  /**
   * A rule with decision points (a rule file's choices and choose): best play at params, solved exactly, with its
   * objective and policy (src/exact/decisions.ts). Throws a UsageError past the enumeration budget.
   */
  decisions?(params: Params): RuleDecisions;
}

/**
 * How a rule is shown beyond its metrics' own names and docs, where it says
 * more: which metrics lead, the readings it took, a matrix to print, and a
 * rule file's declared charts and card. Absent (or a member absent), outputs
 * show every metric, list no readings and offer no matrix.
 */
export interface RulePresentation {
  /** The metrics a player asks about first, by name: run, sweep and compare show them first; cards chart them. */
  headline?(params: Params): string[];
  /** Every reading taken where the text is silent or ambiguous, at these parameters (see Reading). */
  readings?(params: Params): Reading[];
  /** The two-parameter tables `muster matrix` prints (see MatrixSpec). */
  matrix?: MatrixSpec;
  /** A rule file's declared presentation (a built-in's is beside it, found by src/rules/index.ts presentationOf). */
  declared?: Presentation;
}

/** Where a rule file's rule came from: its absolute path and the sha256 of its contents (hex). */
export interface RuleFile {
  path: string;
  sha256: string;
  /** How messages name the file: the path as the user gave it. */
  origin: string;
}

/** One option at a decision point, with the objective's exact value when it is taken and best play follows. */
export interface PolicyOption {
  option: string;
  /** Null where taking it, the play may never end (only plays that end count). */
  value: Fraction | null;
}

/** A decision state that best play reaches: whose decision, each option's value, and the option taken. */
export interface PolicyEntry {
  /** The state, as the rule's plain JSON. */
  state: unknown;
  /** The rule's label(state, params), or the state's compact JSON. */
  label: string;
  side: 'a' | 'b';
  choice: string;
  options: PolicyOption[];
}

/** Best play at one parameter set: what side a plays for, its value, and the policy. */
export interface RuleDecisions {
  /** The metric side a maximises and side b minimises. */
  objective: string;
  /** The objective under best play. */
  value: Fraction;
  /** The objective when every decision takes its first option, or its last; null where that play may not end. */
  alwaysFirst: Fraction | null;
  alwaysLast: Fraction | null;
  /** Every decision state best play reaches, in the order play first reaches them. */
  policy: PolicyEntry[];
  /** Each decision state's canonical text → the option best play takes (simulation plays it). */
  play: ReadonlyMap<string, string>;
}

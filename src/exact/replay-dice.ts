/**
 * Dice that walk every way a procedure's dice can fall. The procedure (a
 * rule file's trial, or one step of its step form) is run again and again:
 * each run replays the choices on a trail and then takes the first branch
 * of every new call, and the next run moves the deepest call with a branch
 * left on to it, depth first, until every sequence of results has been run
 * once. Each run is one path; its weight is the product of the chances of
 * the results it read, kept as an integer over an integer (each call's
 * chances are integers over its own denominator: 1 of `sides` for a die,
 * C(n, k)·hit^k·miss^(n−k) of sides^n for `count`), so nothing is reduced
 * while the paths are walked.
 *
 * This is the replay form of exact enumeration (WebPPL's Enumerate walks the
 * same tree by continuations); it needs nothing of the procedure but that it
 * read the same dice whenever it is given the same results, which is what
 * muster's contract already asks of a trial (no clock, no state kept).
 *
 * No node: imports: the calculator page enumerates in the browser.
 */
import { UsageError } from '../errors.js';
import { formatCount } from '../text/count.js';
import { EXPRESSION_ALLOWED, KEPT_WORK, keptWork, MAX_EXPRESSION, parseDiceExpression } from './dice-expression.js';
import { callText, EXPRESSION_KEY, MAX_SIDES, type Node, nodeOf, sizeNode } from './dice-nodes.js';

export { chanceFraction } from './dice-nodes.js';

/**
 * Thrown when a procedure cannot be enumerated within the limits: one line saying why and what to do instead.
 * `reason` says what could not be enumerated; `remedy` what in the rule would make it enumerable, with no
 * flag in it, since only the command printing the line knows how it simulates: it names that with
 * `simulatedBy` ("leave out --exact", "add --simulate"), and the line then ends "or simulation (…)". A
 * procedure that could not end when simulated either is not `simulable`, and the line offers no simulation.
 */
export class NotEnumerable extends UsageError {
  constructor(
    readonly reason: string,
    readonly remedy: string,
    readonly where = '',
    readonly simulable = true,
    readonly simulateBy = '',
    /** Set where the only thing past was the path budget: how many paths it allowed (a larger budget may do). */
    readonly pastPaths: number | null = null,
  ) {
    const simulation = simulable ? `, or simulation${simulateBy ? ` (${simulateBy})` : ''}` : '';
    super(`${where ? `${where}: ` : ''}${reason}; allowed: ${remedy}${simulation}`);
  }

  /** The same refusal, named by the rule it comes from ("<file> (rule <id>)"). */
  at(where: string): NotEnumerable {
    return new NotEnumerable(this.reason, this.remedy, where, this.simulable, this.simulateBy, this.pastPaths);
  }

  /** The same refusal, with how the command printing it simulates instead. */
  simulatedBy(how: string): NotEnumerable {
    return new NotEnumerable(this.reason, this.remedy, this.where, this.simulable, how, this.pastPaths);
  }
}

/** The largest `count` pool enumerated (MAX_SIDES, dice-nodes.ts, is the largest die and `below` bound). */
const MAX_POOL = 4096;

/**
 * How far one enumeration may go. `paths` is shared by every call of
 * forEachPath that is given the same object (a step form counts the paths
 * of every state's step against one budget), and `used` counts them.
 */
export interface PathBudget {
  /** Most paths walked in all. */
  readonly paths: number;
  /** Most dice calls on one path: a procedure that repeats until something happens has paths of every length. */
  readonly dice: number;
  /** What makes a roll repeated until something happens enumerable, for the message past `dice`. */
  readonly loops: string;
  used: number;
  /** What in the rule would make it enumerable, for the message (the step form, a state that keeps less …). */
  readonly instead: string;
}

export const DEFAULT_PATHS = 1_000_000;

/**
 * How a procedure's result is replayed: what the procedure is called in
 * messages ("trial", "step"), and `differ(first, second)`, which says how
 * two runs of one path disagree (null when they agree). Each run's result is
 * handed to `differ` before the next run starts, so a result that lives in a
 * shared object can be read there and reset.
 */
export interface Replay<R> {
  readonly procedure: string;
  differ(first: R, second: R): string | null;
}

/** The one line for a procedure that is not a function of its dice: it gave something else on replay of `path`. */
export function notReplayed(procedure: string, what: string, path: string): UsageError {
  return new UsageError(
    `the rule is not a function of its dice: the ${procedure} ${what} on replay of path ${path}; exact values ` +
      `need a rule whose ${procedure} depends only on params${procedure === 'trial' ? '' : ', state'} and dice ` +
      '(no Math.random, no clock, no state kept between calls)',
  );
}
const DEFAULT_DICE_PER_PATH = 10_000;

/** A budget of `paths` paths (a million unless told), `dice` dice calls a path. */
export function pathBudget(
  instead: string,
  paths = DEFAULT_PATHS,
  dice = DEFAULT_DICE_PER_PATH,
  loops = 'the step form for a roll repeated until something happens (its loops are solved exactly)',
): PathBudget {
  return { paths, dice, used: 0, instead, loops };
}

/** What an enumerating `dice` offers: the contract's dice (docs/custom-rules.md), each result a branch. */
export interface EnumeratingDice {
  d(sides: number): number;
  count(n: number, sides: number | string, atLeast: number): number;
  sum(n: number, sides: number): number;
  highest(n: number, sides: number, keep: number): number;
  lowest(n: number, sides: number, keep: number): number;
  below(bound: number): number;
  chance(p: number): boolean;
  random(): number;
}

/** The message of a bad dice argument, worded as the simulation words it. */
function badDice(call: string, what: string, value: unknown, allowed: string): UsageError {
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return new UsageError(`${call}: ${what}: got ${shown.slice(0, 80)}; allowed: ${allowed}`);
}

const whole = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Checks `p` as the contract allows it: a number from 0 to 1. */
function checkChance(p: unknown): number {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw badDice('dice.chance', 'p', p, 'a number from 0 to 1');
  return p;
}

class ReplayDice implements EnumeratingDice {
  /** The calls of the current path (the first `depth` of them; the arrays are not cut short), and the branch each takes. */
  nodes: Node[] = [];
  depth = 0;
  branch: number[] = [];
  /** Weight of the path up to and including call k. */
  numerators: bigint[] = [];
  denominators: bigint[] = [];
  /** The next call's index on this run. */
  at = 0;
  /** True on a path's second run, which may only ask again for the dice of the first. */
  replaying = false;
  constructor(
    readonly budget: PathBudget,
    readonly procedure: string,
    /** A probe (leastPaths): each call's number of branches only, no weights. */
    readonly sizesOnly = false,
  ) {}

  d(sides: number): number {
    if (!whole(sides, 1, MAX_SIDES)) throw badDice('dice.d', 'sides', sides, `a whole number from 1 to ${MAX_SIDES}`);
    const k = this.take(0, sides, 0, 0);
    return 1 + k;
  }

  below(bound: number): number {
    if (!whole(bound, 1, MAX_SIDES))
      throw badDice('dice.below', 'bound', bound, `a whole number from 1 to ${MAX_SIDES}`);
    return this.take(2, bound, 0, 0);
  }

  count(n: number, sides: number | string, atLeast: number): number {
    if (typeof sides === 'string') return this.countRolls(n, sides, atLeast);
    // As the simulation allows; past MAX_POOL dice the count has too many outcomes to list, which is no mistake.
    if (!whole(n, 0, 1 << 30)) throw badDice('dice.count', 'n', n, 'a whole number of dice from 0');
    if (n > MAX_POOL)
      throw new NotEnumerable(
        `dice.count of ${n} dice has more outcomes than enumeration lists (at most ${MAX_POOL} dice)`,
        `at most ${MAX_POOL} dice in one dice.count`,
      );
    if (!whole(sides, 1, MAX_SIDES))
      throw badDice('dice.count', 'sides', sides, `a whole number from 1 to ${MAX_SIDES}`);
    if (typeof atLeast !== 'number' || Number.isNaN(atLeast))
      throw badDice('dice.count', 'atLeast', atLeast, 'a ' + 'number');
    const least = Math.max(1, Math.min(sides + 1, Math.ceil(atLeast)));
    const k = this.take(1, n, sides, least);
    const node = this.nodes[this.at - 1];
    return node.values ? node.values[k] : k;
  }

  /** count(n, 'KdS', atLeast): n rolls of K dice of S faces added up, one branch per number reaching atLeast. */
  private countRolls(n: number, text: string, atLeast: number): number {
    const expression = parseDiceExpression(text);
    if (!expression)
      throw badDice(
        'dice.count',
        'sides',
        text,
        `a whole number of faces from 1 to ${MAX_SIDES}, or ${EXPRESSION_ALLOWED}`,
      );
    if (!whole(n, 0, 1 << 30)) throw badDice('dice.count', 'n', n, 'a whole number of rolls from 0');
    if (n > MAX_POOL)
      throw new NotEnumerable(
        `dice.count of ${n} rolls has more outcomes than enumeration lists (at most ${MAX_POOL} rolls)`,
        `at most ${MAX_POOL} rolls in one dice.count`,
      );
    if (typeof atLeast !== 'number' || Number.isNaN(atLeast))
      throw badDice('dice.count', 'atLeast', atLeast, 'a ' + 'number');
    const { dice, sides } = expression;
    const least = Math.max(dice, Math.min(dice * sides + 1, Math.ceil(atLeast)));
    const k = this.take(4, n, dice * EXPRESSION_KEY + sides, least);
    return (this.nodes[this.at - 1].values as Int32Array)[k];
  }

  sum(n: number, sides: number): number {
    if (!whole(n, 0, 1 << 30)) throw badDice('dice.sum', 'n', n, 'a whole number of dice from 0');
    if (!whole(sides, 1, MAX_SIDES)) throw badDice('dice.sum', 'sides', sides, `a whole number from 1 to ${MAX_SIDES}`);
    if (n * sides > MAX_EXPRESSION)
      throw new NotEnumerable(
        `dice.sum of ${n} dice of ${sides} faces has more totals than enumeration lists (dice · sides at most ` +
          `${MAX_EXPRESSION})`,
        `at most ${MAX_EXPRESSION} for dice · sides in one dice.sum`,
      );
    const k = this.take(5, n, sides, 0);
    return n + k;
  }

  highest(n: number, sides: number, keep: number): number {
    return this.kept('dice.highest', 6, n, sides, keep);
  }

  lowest(n: number, sides: number, keep: number): number {
    return this.kept('dice.lowest', 7, n, sides, keep);
  }

  /** The `keep` highest (kind 6) or lowest (7) of n dice added up: one branch per kept total. */
  private kept(call: string, kind: number, n: number, sides: number, keep: number): number {
    if (!whole(n, 0, MAX_POOL)) throw badDice(call, 'n', n, `a whole number of dice from 0 to ${MAX_POOL}`);
    if (!whole(sides, 1, MAX_SIDES)) throw badDice(call, 'sides', sides, `a whole number from 1 to ${MAX_SIDES}`);
    if (!whole(keep, 0, n)) throw badDice(call, 'keep', keep, `a whole number of dice from 0 to n (${n})`);
    if (keep * sides > MAX_EXPRESSION || keptWork(n, sides, keep) > KEPT_WORK)
      throw new NotEnumerable(
        `${call} of ${keep} of ${n} dice of ${sides} faces has more kept totals or ways to count than enumeration ` +
          `takes (keep · sides at most ${MAX_EXPRESSION}, and at most ${formatCount(KEPT_WORK)} steps to count ` +
          'the ways: keep³ · sides², and sides · (n · log2 sides / 64)² for the powers)',
        'fewer dice kept, fewer dice, or dice.sum when every die is kept',
      );
    const k = this.take(kind, n, sides, keep);
    return keep + k;
  }

  chance(p: number): boolean {
    checkChance(p);
    const k = this.take(3, p, 0, 0);
    return (this.nodes[this.at - 1].values as Int32Array)[k] === 1;
  }

  random(): number {
    throw new NotEnumerable(
      'dice.random() cannot be enumerated (a uniform number has no list of outcomes)',
      'dice.d, dice.count, dice.below or dice.chance(p) in its place',
    );
  }

  /** The branch this run takes at the next call: replayed from the trail, or the first of a new call. */
  private take(kind: number, a: number, b: number, c: number): number {
    const at = this.at++;
    if (at < this.depth) {
      const node = this.nodes[at];
      if (node.kind !== kind || node.a !== a || node.b !== b || node.c !== c) {
        throw notReplayed(this.procedure, `asked for ${callText(kind, a, b, c)}`, this.pathText());
      }
      return this.branch[at];
    }
    if (this.replaying) {
      throw notReplayed(this.procedure, `asked for ${callText(kind, a, b, c)} past its dice`, this.pathText());
    }
    if (at >= this.budget.dice) {
      // A trial may roll that many dice and end, or repeat a roll until something happens (paths of every
      // length): enumeration cannot tell which, so the line names both and the remedy of each.
      throw new NotEnumerable(
        `enumeration needs more than ${formatCount(this.budget.dice)} dice on one path of the ${this.procedure}`,
        `dice.count(n, sides, atLeast) for many dice rolled at once, or ${this.budget.loops}`,
      );
    }
    const node = this.sizesOnly ? sizeNode(kind, a, b, c) : nodeOf(kind, a, b, c);
    this.nodes[at] = node;
    this.branch[at] = 0;
    this.depth = at + 1;
    if (!this.sizesOnly) this.weigh(at);
    return 0;
  }

  /** The path's weight through call `at`, from the weight before it and the branch it takes. */
  weigh(at: number): void {
    const node = this.nodes[at];
    const before = at === 0 ? 1n : this.numerators[at - 1];
    const beforeDenominator = at === 0 ? 1n : this.denominators[at - 1];
    this.numerators[at] = node.weights ? before * node.weights[this.branch[at]] : before;
    this.denominators[at] = beforeDenominator * node.denominator;
  }

  /** The first `length` calls of the path and the results they gave, for a message: [d6 → 3, chance(0.5) → true]. */
  pathText(length = this.depth): string {
    const shown: string[] = [];
    for (let k = 0; k < Math.min(length, 12); k++) {
      const node = this.nodes[k];
      const branch = this.branch[k];
      const value = node.values
        ? node.values[branch]
        : node.kind === 0
          ? 1 + branch
          : node.kind === 5
            ? node.a + branch
            : node.kind === 6 || node.kind === 7
              ? node.c + branch
              : branch;
      shown.push(`${callText(node.kind, node.a, node.b, node.c)} → ${node.kind === 3 ? value === 1 : value}`);
    }
    if (length > 12) shown.push(`… ${length - 12} more`);
    return `[${shown.join(', ')}]`;
  }

  /** Moves the trail to the next path; false when every path has been run. */
  advance(): boolean {
    let k = this.depth - 1;
    while (k >= 0 && this.branch[k] === this.nodes[k].size - 1) k--;
    if (k < 0) return false;
    this.branch[k]++;
    this.depth = k + 1;
    // The call is the same, so is its denominator: only a weighed branch changes the path's numerator.
    const node = this.nodes[k];
    if (node.weights) this.numerators[k] = (k === 0 ? 1n : this.numerators[k - 1]) * node.weights[this.branch[k]];
    return true;
  }
}

/** The refusal of an enumeration that needs more paths than its budget. */
export function pastBudget(budget: PathBudget): NotEnumerable {
  return new NotEnumerable(
    `enumeration needs more than ${formatCount(budget.paths)} paths`,
    budget.instead,
    '',
    true,
    '',
    budget.paths,
  );
}

/**
 * A lower bound on the paths `run` has, from one run down its first branches: every call on that path has each of
 * its other branches leading to at least one more path, so there are at least 1 + Σ (branches − 1). Counted
 * without the path's weights and without replay. A run that throws (a call past the limits, a rule that fails on
 * this state) gives 0: nothing is claimed, and the enumeration meets the fault itself when it walks the paths.
 */
export function leastPaths(run: (dice: EnumeratingDice) => unknown, budget: PathBudget): number {
  const dice = new ReplayDice(budget, 'probe', true);
  try {
    run(dice);
  } catch {
    return 0;
  }
  let least = 1;
  for (let k = 0; k < dice.depth; k++) least += dice.nodes[k].size - 1;
  return least;
}

/**
 * Runs `run` once for every way its dice can fall and gives `visit` each
 * run's result with its weight, numerator over denominator (not reduced).
 * The weights of all paths sum to 1. Throws NotEnumerable past the budget
 * (counted before the path that would exceed it is run) or at dice.random().
 *
 * With `replay`, each path is run twice and the runs must agree (the same
 * dice asked for, and `replay.differ` finds nothing): a procedure that reads
 * Math.random, the clock or state kept between calls is refused in one line
 * rather than given values that are not its own. This doubles the calls of
 * the procedure, and nothing else: the trail is walked once, the second run
 * only replays it. It cannot catch a procedure built to repeat itself in
 * pairs of calls; it catches the ones that are simply not a function of
 * their dice, which is every mistake seen so far. `run` is told which run of
 * the path it is (`again` on the second), so that each run may write its
 * result into an object of its own, kept from path to path.
 */
export function forEachPath<R>(
  run: (dice: EnumeratingDice, again: boolean) => R,
  visit: (result: R, numerator: bigint, denominator: bigint) => void,
  budget: PathBudget,
  replay?: Replay<R>,
): void {
  const dice = new ReplayDice(budget, replay?.procedure ?? 'procedure');
  for (;;) {
    if (budget.used >= budget.paths) throw pastBudget(budget);
    budget.used++;
    dice.at = 0;
    let result = run(dice, false);
    if (dice.at !== dice.depth) {
      throw notReplayed(dice.procedure, `stopped after ${dice.at} of its dice`, dice.pathText());
    }
    if (replay) result = replayPath(dice, run, replay, result);
    const last = dice.depth - 1;
    visit(result, last < 0 ? 1n : dice.numerators[last], last < 0 ? 1n : dice.denominators[last]);
    if (!dice.advance()) return;
  }
}

/** The path run again on the same results: its second result, or the one line saying how it differs from the first. */
function replayPath<R>(
  dice: ReplayDice,
  run: (dice: EnumeratingDice, again: boolean) => R,
  replay: Replay<R>,
  first: R,
): R {
  dice.at = 0;
  dice.replaying = true;
  let second: R;
  try {
    second = run(dice, true);
  } finally {
    dice.replaying = false;
  }
  if (dice.at !== dice.depth) {
    throw notReplayed(dice.procedure, `stopped after ${dice.at} of its ${dice.depth} dice`, dice.pathText());
  }
  const difference = replay.differ(first, second);
  if (difference !== null) throw notReplayed(dice.procedure, difference, dice.pathText());
  return second;
}

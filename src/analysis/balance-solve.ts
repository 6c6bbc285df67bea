/**
 * The balance of a grid already computed: which settings bring a metric
 * nearest a target, how far one step of each varied parameter moves it
 * there, and where between neighbouring settings it jumps. Pure: it reads a
 * sweep's points and returns the `balance` block of the result JSON
 * (docs/json.md); balance.ts plans and evaluates the grid.
 *
 * Every comparison is made in fractions: a point's exact value where every
 * point has one (ties are then ties), else its estimate read exactly as the
 * double it is (and the answer says it is simulated).
 *
 *   points ─► value per point (Fraction) ─► candidates (--keep) ─► nearest, straddling pairs, within
 *                                        └─► sensitivity at the nearest, cliffs between neighbours
 */

import type { MetricSpec, Params, ParamValue } from '../contract/types.js';
import { Fraction } from '../exact/fraction.js';
import { own } from '../keyed.js';
import type { MetricResult } from '../result.js';
import { type Keep, keeps, type Quantity } from './balance-terms.js';
import type { SweepResult } from './sweep-result.js';

/** A number in the balance block: its double, and its fraction where the values are exact. */
export interface BalanceNumber {
  value: number;
  /** "n/d" in lowest terms (exact values only), else null. */
  fraction: string | null;
}

/** A setting of the varied parameters, its metric value and how far that is from the target (value − target). */
export interface BalancePoint {
  params: Params;
  value: BalanceNumber;
  miss: BalanceNumber;
}

/** One varied parameter moved one step from the nearest setting: to which value, and how much the metric moves. */
export interface BalanceStep {
  param: string;
  from: ParamValue;
  to: ParamValue;
  change: BalanceNumber;
}

/** Two neighbouring settings (one parameter one step apart) between which the metric moves by more than the cliff. */
export interface BalanceCliff {
  param: string;
  from: Params;
  to: Params;
  change: BalanceNumber;
}

/** The `balance` block of `muster balance --json` (docs/json.md). */
export interface BalanceBlock {
  metric: string;
  target: { text: string } & BalanceNumber;
  /** True when every value compared is exact (fractions); false when estimates were compared. */
  exact: boolean;
  keep: string[];
  /** Settings that meet every --keep and have the metric; `excluded` those a --keep removed. */
  candidates: number;
  excluded: number;
  /**
   * 'hit': a setting gives the target exactly; 'between': candidates lie on both sides of it; 'above' or 'below':
   * every candidate lies on that side ("no setting in range reaches it"); 'none': no candidate.
   */
  reach: 'hit' | 'between' | 'above' | 'below' | 'none';
  /** The settings nearest the target (several only when tied), in grid order. */
  nearest: BalancePoint[];
  /**
   * Neighbouring candidates (one parameter one step apart) on either side of the target: the pairs with the
   * nearer side nearest first, ties by the farther side.
   */
  straddles: Array<{ param: string; below: BalancePoint; above: BalancePoint }>;
  /** With --within: every candidate within that distance of the target, in grid order. */
  within: { distance: { text: string } & BalanceNumber; points: BalancePoint[] } | null;
  /** For each varied parameter, one step down and up from the first nearest setting (where the grid has them). */
  sensitivity: BalanceStep[];
  cliff: { text: string } & BalanceNumber;
  /** Neighbouring settings whose values differ by more than `cliff`, the largest jump first. */
  cliffs: BalanceCliff[];
  /** With two or more varied parameters: the nearest candidates for each value of the first one. */
  rows: Array<{ value: ParamValue; nearest: BalancePoint[] }> | null;
}

export interface BalanceQuestion {
  metric: MetricSpec;
  target: Quantity;
  keep: readonly Keep[];
  cliff: Quantity;
  within: Quantity | null;
}

type Point = SweepResult['points'][number];

/** The figure compared at a point, or undefined where the point lacks the metric. */
function figureOf(point: Point, metric: string, exact: boolean): Fraction | undefined {
  const result = own(point.metrics, metric) as MetricResult | undefined;
  if (!result) return undefined;
  if (exact) return result.fraction === null ? undefined : fractionOf(result.fraction);
  return result.estimate === null ? undefined : Fraction.fromNumber(result.estimate);
}

function fractionOf(text: string): Fraction {
  const [numerator, denominator = '1'] = text.split('/');
  return Fraction.of(BigInt(numerator), BigInt(denominator));
}

function abs(value: Fraction): Fraction {
  return value.compare(Fraction.ZERO) < 0 ? Fraction.ZERO.sub(value) : value;
}

/** Whether every point that has the metric has its exact value. */
function allExact(points: readonly Point[], metric: string): boolean {
  const present = points
    .map((point) => own(point.metrics, metric) as MetricResult | undefined)
    .filter((result) => result !== undefined);
  return present.length > 0 && present.every((result) => result.fraction !== null);
}

/** The points of a sweep as the balance weighs them: each one's figure, and the grid's geometry. */
interface Weighed {
  sweep: Pick<SweepResult, 'points' | 'vary'>;
  target: Fraction;
  /** Each point's figure of the metric, when it has one. */
  values: Array<Fraction | undefined>;
  /** Whether each point has the figure and passes every --keep. */
  candidate: boolean[];
  candidateIndices: number[];
  /** Each point's position along every varied parameter. */
  positions: number[][];
  /** The point one `step` along `axis` from point `index`, if the grid has it. */
  neighbour: (index: number, axis: number, step: number) => number | undefined;
  /** How far point `index` misses the target. */
  distance: (index: number) => Fraction;
  number: (value: Fraction) => BalanceNumber;
}

/** The balance of the sweep's points for the question. */
export function solveBalance(sweep: Pick<SweepResult, 'points' | 'vary'>, question: BalanceQuestion): BalanceBlock {
  const { metric, target, keep, cliff, within } = question;
  const name = metric.name;
  const exact = allExact(sweep.points, name) && keep.every((k) => allExact(sweep.points, k.metric.name));
  const number = (value: Fraction): BalanceNumber => ({
    value: value.toNumber(),
    fraction: exact ? value.toString() : null,
  });
  const values = sweep.points.map((point) => figureOf(point, name, exact));
  const keptBy = (point: Point) =>
    keep.every((k) => {
      const figure = figureOf(point, k.metric.name, exact);
      return figure !== undefined && keeps(k, figure);
    });
  const candidate = sweep.points.map((point, index) => values[index] !== undefined && keptBy(point));
  const withMetric = values.filter((value) => value !== undefined).length;
  const candidates = candidate.filter(Boolean).length;
  const pointAt = (index: number): BalancePoint => {
    const value = values[index] as Fraction;
    return { params: sweep.points[index].params, value: number(value), miss: number(value.sub(target.value)) };
  };
  const distance = (index: number) => abs((values[index] as Fraction).sub(target.value));

  // The grid's geometry: each point's position along every varied parameter, and the point at a position.
  const positions = sweep.points.map((point) =>
    sweep.vary.map((vary) => vary.values.findIndex((value) => String(value) === String(own(point.params, vary.name)))),
  );
  const at = new Map(positions.map((position, index) => [position.join(','), index]));
  const neighbour = (index: number, axis: number, step: number): number | undefined => {
    const position = [...positions[index]];
    position[axis] += step;
    return at.get(position.join(','));
  };
  const candidateIndices = sweep.points.flatMap((_, index) => (candidate[index] ? [index] : []));
  const weighed: Weighed = {
    sweep,
    target: target.value,
    values,
    candidate,
    candidateIndices,
    positions,
    neighbour,
    distance,
    number,
  };
  const nearest = nearestOf(candidateIndices, distance);

  let rows: BalanceBlock['rows'] = null;
  if (sweep.vary.length >= 2) {
    const first = sweep.vary[0];
    rows = first.values.map((value, position) => ({
      value,
      nearest: nearestOf(
        candidateIndices.filter((index) => positions[index][0] === position),
        distance,
      ).map(pointAt),
    }));
  }

  return {
    metric: name,
    target: { text: target.text, value: target.value.toNumber(), fraction: target.value.toString() },
    exact,
    keep: keep.map((k) => k.text),
    candidates,
    excluded: withMetric - candidates,
    reach: reachOf(weighed),
    nearest: nearest.map(pointAt),
    straddles: straddlesOf(weighed).map(({ param, below, above }) => ({
      param,
      below: pointAt(below),
      above: pointAt(above),
    })),
    within: within
      ? {
          distance: { text: within.text, value: within.value.toNumber(), fraction: within.value.toString() },
          points: candidateIndices.filter((index) => distance(index).compare(within.value) <= 0).map(pointAt),
        }
      : null,
    sensitivity: sensitivityOf(weighed, nearest),
    cliff: { text: cliff.text, value: cliff.value.toNumber(), fraction: cliff.value.toString() },
    cliffs: cliffsOf(weighed, cliff.value).map(({ size: _size, ...rest }) => rest),
    rows,
  };
}

/** The indices that miss the target least, all of them when several tie. */
function nearestOf(indices: readonly number[], distance: (index: number) => Fraction): number[] {
  let best: Fraction | undefined;
  let chosen: number[] = [];
  for (const index of indices) {
    const gap = distance(index);
    const order = best === undefined ? -1 : gap.compare(best);
    if (order < 0) {
      best = gap;
      chosen = [index];
    } else if (order === 0) {
      chosen.push(index);
    }
  }
  return chosen;
}

/** Where the candidates lie against the target: one on it, some either side, all above or below, or none. */
function reachOf({ candidateIndices, values, target }: Weighed): BalanceBlock['reach'] {
  const sides = candidateIndices.map((index) => (values[index] as Fraction).compare(target));
  return candidateIndices.length === 0
    ? 'none'
    : sides.includes(0)
      ? 'hit'
      : sides.includes(-1) && sides.includes(1)
        ? 'between'
        : sides.includes(1)
          ? 'above'
          : 'below';
}

/** Neighbouring candidates with the target strictly between them, the pair that misses least first. */
function straddlesOf(weighed: Weighed): Array<{ param: string; below: number; above: number }> {
  const { sweep, values, candidate, candidateIndices, neighbour, distance, target } = weighed;
  const straddles: Array<{ param: string; below: number; above: number; best: Fraction; worst: Fraction }> = [];
  for (const index of candidateIndices) {
    sweep.vary.forEach((vary, axis) => {
      const next = neighbour(index, axis, 1);
      if (next === undefined || !candidate[next]) return;
      const here = (values[index] as Fraction).compare(target);
      const there = (values[next] as Fraction).compare(target);
      if (here * there !== -1) return;
      const [below, above] = here < 0 ? [index, next] : [next, index];
      const gaps = [distance(below), distance(above)];
      const [best, worst] = gaps[0].compare(gaps[1]) > 0 ? [gaps[1], gaps[0]] : gaps;
      straddles.push({ param: vary.name, below, above, best, worst });
    });
  }
  // The pair holding the nearest setting first, then the pair whose farther side misses least.
  straddles.sort((x, y) => x.best.compare(y.best) || x.worst.compare(y.worst));
  return straddles;
}

/** How the figure changes one step either way along each varied parameter from the nearest setting. */
function sensitivityOf({ sweep, values, neighbour, number }: Weighed, nearest: readonly number[]): BalanceStep[] {
  const sensitivity: BalanceStep[] = [];
  if (nearest.length === 0) return sensitivity;
  const fair = nearest[0];
  sweep.vary.forEach((vary, axis) => {
    for (const step of [-1, 1]) {
      const other = neighbour(fair, axis, step);
      if (other === undefined || values[other] === undefined) continue;
      sensitivity.push({
        param: vary.name,
        from: own(sweep.points[fair].params, vary.name) as ParamValue,
        to: own(sweep.points[other].params, vary.name) as ParamValue,
        change: number((values[other] as Fraction).sub(values[fair] as Fraction)),
      });
    }
  });
  return sensitivity;
}

/**
 * Steps between neighbours larger than `cliff`, largest first, among every point with the metric, candidates or
 * not: a jump is the rule's, whatever --keep asks.
 */
function cliffsOf(
  { sweep, values, neighbour, number }: Weighed,
  cliff: Fraction,
): Array<BalanceCliff & { size: Fraction }> {
  const cliffs: Array<BalanceCliff & { size: Fraction }> = [];
  sweep.points.forEach((point, index) => {
    if (values[index] === undefined) return;
    sweep.vary.forEach((vary, axis) => {
      const next = neighbour(index, axis, 1);
      if (next === undefined || values[next] === undefined) return;
      const change = (values[next] as Fraction).sub(values[index] as Fraction);
      if (abs(change).compare(cliff) <= 0) return;
      cliffs.push({
        param: vary.name,
        from: point.params,
        to: sweep.points[next].params,
        change: number(change),
        size: abs(change),
      });
    });
  });
  cliffs.sort((x, y) => y.size.compare(x.size));
  return cliffs;
}

/**
 * Mordheim warbands (see warbands.ts), exactly: every roll-off is among players on equal terms, and only
 * the dice the roll-offs take need recursions.
 */
import { distributionOf, type ExactDistribution } from '../../exact/exact-distribution.js';
import { Fraction } from '../../exact/fraction.js';
import { defenderCandidates, read, underdogs, type Warbands } from './setup.js';

// Expected dice, by the size m of the group rolling. Memoised: each value needs every smaller one.
const sortDiceMemo: Fraction[] = [Fraction.ZERO, Fraction.ZERO];
const firstDiceMemo: Fraction[] = [Fraction.ZERO, Fraction.ZERO];
const SIXTH = Fraction.of(1, 6);

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * Expected D6 thrown until m players stand in a strict order, every tied
 * group re-rolling among itself. One throw costs m dice, after which each
 * face shown by exactly g ≥ 2 dice leaves a group of g to settle; by
 * linearity E(m) = m + Σ_g c(m, g)·E(g), with c(m, g) = 6·C(m, g)(1/6)^g(5/6)^(m−g)
 * the expected number of faces shown by exactly g dice. The g = m term is the
 * all-tied throw, solved for E(m).
 * @example sortDice(2).toString() // '12/5': 2 + E(2)/6
 */
function sortDice(m: number): Fraction {
  for (let size = sortDiceMemo.length; size <= m; size++) {
    let others = Fraction.of(size);
    for (let g = 2; g < size; g++) {
      const faces = Fraction.of(6 * binomial(size, g))
        .mul(SIXTH.pow(g))
        .mul(Fraction.of(5, 6).pow(size - g));
      others = others.add(faces.mul(sortDiceMemo[g]));
    }
    const allTied = Fraction.of(6).mul(SIXTH.pow(size));
    sortDiceMemo[size] = others.div(allTied.complement());
  }
  return sortDiceMemo[m];
}

/**
 * Expected D6 thrown until one of m players has the single highest roll,
 * only those tied for highest re-rolling. After one throw of m dice, the top
 * face f is shown by exactly g of them with chance C(m, g)(1/6)^g((f−1)/6)^(m−g),
 * so E(m) = m + Σ_{g≥2} P(g tied on top)·E(g), the g = m term solved for E(m).
 * @example firstDice(2).toString() // '12/5'
 */
function firstDice(m: number): Fraction {
  for (let size = firstDiceMemo.length; size <= m; size++) {
    let others = Fraction.of(size);
    let allTied = Fraction.ZERO;
    for (let g = 2; g <= size; g++) {
      let tiedOnTop = Fraction.ZERO;
      for (let face = 1; face <= 6; face++) tiedOnTop = tiedOnTop.add(Fraction.of(face - 1, 6).pow(size - g));
      tiedOnTop = tiedOnTop.mul(Fraction.of(binomial(size, g))).mul(SIXTH.pow(g));
      if (g === size) allTied = tiedOnTop;
      else others = others.add(tiedOnTop.mul(firstDiceMemo[g]));
    }
    firstDiceMemo[size] = others.div(allTied.complement());
  }
  return firstDiceMemo[m];
}

/**
 * Every roll-off here is among players on equal terms, so by symmetry each
 * player in it is equally likely to take each place: the defender is uniform
 * over the candidates, the setup order uniform over the warbands left, the
 * first player uniform over all. Only the dice counts need recursions.
 */
export function exact(p: Warbands): Record<string, Fraction> {
  const { warbands, alliances, hasDefender, underdogBy } = read(p);
  const n = warbands.length;
  const candidates = defenderCandidates(warbands);
  const underdogFlags = underdogs(warbands, alliances, underdogBy);
  const defends = warbands.map((_, i) =>
    hasDefender && candidates.includes(i) ? Fraction.of(1, candidates.length) : Fraction.ZERO,
  );
  const rollers = hasDefender ? n - 1 : n;

  const result: Record<string, Fraction> = {};
  for (let i = 0; i < n; i++) {
    const w = `w${i + 1}`;
    result[`${w}.defender`] = defends[i];
    result[`${w}.underdog`] = underdogFlags[i] ? Fraction.ONE : Fraction.ZERO;
    for (let k = 1; k <= n; k++) {
      // With a defender, place 1 is the defender's and places 2..n share what is left.
      const share = hasDefender
        ? k === 1
          ? defends[i]
          : defends[i].complement().div(Fraction.of(rollers))
        : Fraction.of(1, n);
      result[`${w}.setup.${k}`] = share;
    }
    result[`${w}.first`] = Fraction.of(1, n);
  }
  result['dice.setup.mean'] = sortDice(rollers);
  result['dice.first.mean'] = firstDice(n);
  result['dice.defender.mean'] = hasDefender ? firstDice(candidates.length) : Fraction.ZERO;
  return result;
}

/**
 * What one throw of `size` dice leaves to roll again, over its 6^size equally likely faces: each outcome's ways and
 * the sizes of the groups that roll again. A roll-off for the top ('top') re-rolls only the group tied on the highest
 * face; one for an order ('sort') re-rolls every group of two or more on one face, each among itself. Counted by how
 * many dice show each face (a composition of size), C(size; c1, …, c6) ways each.
 */
function throwOutcomes(kind: 'top' | 'sort', size: number): Array<{ ways: bigint; again: number[] }> {
  const byAgain = new Map<string, { ways: bigint; again: number[] }>();
  const factorial = (k: number): bigint => (k <= 1 ? 1n : BigInt(k) * factorial(k - 1));
  const counts = new Array<number>(6).fill(0);
  const visit = (face: number, left: number): void => {
    if (face === 5) {
      counts[5] = left;
      let ways = factorial(size);
      for (const count of counts) ways /= factorial(count);
      const top = [...counts].reverse().find((count) => count > 0) as number;
      const again =
        kind === 'top' ? (top >= 2 ? [top] : []) : counts.filter((count) => count >= 2).sort((x, y) => x - y);
      const key = again.join(',');
      const entry = byAgain.get(key) ?? { ways: 0n, again };
      entry.ways += ways;
      byAgain.set(key, entry);
      return;
    }
    for (let count = 0; count <= left; count++) {
      counts[face] = count;
      visit(face + 1, left - count);
    }
  };
  visit(0, size);
  return [...byAgain.values()];
}

/** Where the listing of a roll-off's dice stops: once what lies beyond is at most this. */
const DICE_TAIL = Fraction.of(1, 10 ** 12);

/**
 * The whole distribution of the dice a roll-off among `size` players throws, until one stands alone on top ('top') or
 * all stand in a strict order ('sort'). Every die is a sixth, so P(d dice) is a whole number of 6^−d:
 * ways[s][d], for every group size s up to `size`, from the throw's outcomes,
 * ways[s][d] = Σ over outcomes of its ways · (the product of its groups' series)[d − s], an all-tied throw reading
 * ways[s] itself at a lower degree. Listed until what lies beyond is at most 10^-12; the mean and variance are exact,
 * from the same outcomes: D_s = s + Σ D_g over the groups rolling again, solved for the all-tied term.
 */
export function rollOffDice(kind: 'top' | 'sort', size: number): ExactDistribution {
  if (size <= 1) return distributionOf(new Map([[0, Fraction.ONE]]));
  const outcomes = Array.from({ length: size + 1 }, (_, s) => (s <= 1 ? [] : throwOutcomes(kind, s)));
  for (let depth = 32; ; depth *= 2) {
    const ways: bigint[][] = [];
    for (let s = 0; s <= size; s++) {
      const series = new Array<bigint>(depth + 1).fill(0n);
      if (s <= 1) series[0] = 1n;
      else {
        const products = outcomes[s]
          .filter((o) => !(o.again.length === 1 && o.again[0] === s))
          .map((o) => ({ ways: o.ways, product: o.again.reduce((p, g) => convolve(p, ways[g], depth), [1n]) }));
        const self = outcomes[s].find((o) => o.again.length === 1 && o.again[0] === s)?.ways ?? 0n;
        for (let d = s; d <= depth; d++) {
          let total = self * series[d - s];
          for (const { ways: w, product } of products) total += w * (product[d - s] ?? 0n);
          series[d] = total;
        }
      }
      ways.push(series);
    }
    const series = ways[size];
    // Trim to the first degree past which at most DICE_TAIL lies.
    let listed = Fraction.ZERO;
    for (let d = 0; d <= depth; d++) {
      listed = listed.add(Fraction.of(series[d], 6n ** BigInt(d)));
      const beyond = listed.complement();
      if (beyond.compare(DICE_TAIL) <= 0) {
        const probabilities = series.slice(0, d + 1).map((w, at) => Fraction.of(w, 6n ** BigInt(at)));
        const { mean, variance } = diceMoments(outcomes, size);
        return { min: 0, probabilities, beyond, mean, variance };
      }
    }
  }
}

/** The first `depth + 1` coefficients of the product of two series. */
function convolve(a: readonly bigint[], b: readonly bigint[], depth: number): bigint[] {
  const result = new Array<bigint>(Math.min(depth, a.length + b.length - 2) + 1).fill(0n);
  for (let i = 0; i < a.length && i <= depth; i++) {
    if (a[i] === 0n) continue;
    for (let j = 0; j < b.length && i + j <= depth; j++) result[i + j] += a[i] * b[j];
  }
  return result;
}

/**
 * The mean and variance of D_s = s + Σ D_g (the groups an outcome leaves, independent), for s = size: with E_g and
 * M_g = E[D_g²] known for smaller groups, E[(s + S)²] = s² + 2s·E[S] + Σ M_g + Σ_{g≠h} E_g·E_h, and the all-tied
 * outcome (chance a) reads E_s and M_s themselves: E_s(1 − a) = s + Σ_rest p·E[S], and likewise for M_s.
 */
function diceMoments(
  outcomes: ReadonlyArray<ReadonlyArray<{ ways: bigint; again: number[] }>>,
  size: number,
): { mean: Fraction; variance: Fraction } {
  const means: Fraction[] = [Fraction.ZERO, Fraction.ZERO];
  const squares: Fraction[] = [Fraction.ZERO, Fraction.ZERO];
  for (let s = 2; s <= size; s++) {
    const all = 6n ** BigInt(s);
    const m = Fraction.of(s);
    let tied = Fraction.ZERO;
    let meanRest = m;
    let squareRest = Fraction.ZERO;
    for (const { ways, again } of outcomes[s]) {
      const chance = Fraction.of(ways, all);
      if (again.length === 1 && again[0] === s) {
        tied = chance;
        continue;
      }
      let sum = Fraction.ZERO;
      let square = Fraction.ZERO;
      for (const g of again) {
        square = square.add(squares[g]).add(Fraction.of(2).mul(means[g]).mul(sum));
        sum = sum.add(means[g]);
      }
      meanRest = meanRest.add(chance.mul(sum));
      squareRest = squareRest.add(chance.mul(m.mul(m).add(Fraction.of(2).mul(m).mul(sum)).add(square)));
    }
    const stays = tied.complement();
    const mean = meanRest.div(stays);
    // The all-tied throw: E[(s + D_s)²] = s² + 2s·E_s + M_s.
    const square = squareRest.add(tied.mul(m.mul(m).add(Fraction.of(2).mul(m).mul(mean)))).div(stays);
    means.push(mean);
    squares.push(square);
  }
  return { mean: means[size], variance: squares[size].sub(means[size].mul(means[size])) };
}

/** The dice each roll-off throws, as whole distributions: setup order, first turn, and the defender's tie. */
export function exactDistributions(p: Warbands): Record<string, ExactDistribution> {
  const { warbands, hasDefender } = read(p);
  const n = warbands.length;
  return {
    'dice.setup.mean': rollOffDice('sort', hasDefender ? n - 1 : n),
    'dice.first.mean': rollOffDice('top', n),
    'dice.defender.mean': rollOffDice('top', hasDefender ? defenderCandidates(warbands).length : 0),
  };
}

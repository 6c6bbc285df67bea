/**
 * Mordheim warbands (see warbands.ts), exactly: every roll-off is among players on equal terms, and only
 * the dice the roll-offs take need recursions.
 */
import { Fraction } from '../exact/fraction.js';
import { defenderCandidates, read, underdogs, type Warbands } from './warbands-setup.js';

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

/**
 * `--objective EXPR`: what a side plays for, as a weighted sum of a rule's
 * metrics, read by a small parser of its own (nothing is evaluated as code).
 *
 *   sum    := term (('+' | '-') term)*
 *   term   := factor ('*' factor)*          at most one factor of a product may hold a metric
 *   factor := ('-' | '+') factor | NUMBER | METRIC | '(' sum ')'
 *
 * NUMBER is a decimal (`0.5`, `2`, `.25`), taken exactly as typed (0.1 is
 * 1/10). METRIC is a metric name as the rule spells it; a name holding a
 * space or one of `+ - * ( )` is written in double quotes. The whole text,
 * when it is exactly one metric's name, is that metric, so a lone name never
 * needs quotes. The result is linear: a constant and one exact weight a
 * metric, in the order the metrics first appear, so it can be evaluated on
 * exact values (fractions) or on estimates alike.
 */
import { UsageError } from '../errors.js';
import { didYouMean } from '../text/suggest.js';
import { Fraction } from './fraction.js';

export interface Objective {
  /** The text as the user typed it, trimmed. */
  text: string;
  /** Each metric's weight (zero weights dropped), in the order the metrics first appear. */
  weights: Map<string, Fraction>;
  constant: Fraction;
}

type Token = { kind: 'number'; text: string } | { kind: 'name'; text: string } | { kind: 'op'; text: string };

const OPERATORS = '+-*()';
const ALLOWED =
  'a metric, or a weighted sum such as "a.initiative + 0.5*a.aoc" (numbers, metric names, + - * and ' +
  'parentheses; a name with spaces or + - * ( ) in "double quotes")';

/**
 * Reads an objective against the metrics a rule has at these parameters.
 * @example parseObjective('a.initiative + 0.5*a.aoc', ['a.initiative', 'a.aoc']).weights.get('a.aoc')?.toString() // '1/2'
 */
export function parseObjective(text: string, metrics: readonly string[], option = '--objective'): Objective {
  const trimmed = text.trim();
  const problem = (what: string) =>
    new UsageError(`${option}: got ${JSON.stringify(text)} (${what}); allowed: ${ALLOWED}`);
  if (metrics.includes(trimmed))
    return { text: trimmed, weights: new Map([[trimmed, Fraction.ONE]]), constant: Fraction.ZERO };
  const tokens = tokenize(trimmed, problem);
  if (tokens.length === 0) throw problem('empty');
  let at = 0;
  const peek = () => tokens[at] as Token | undefined;

  const sum = (): Linear => {
    let value = term();
    for (let next = peek(); next?.kind === 'op' && (next.text === '+' || next.text === '-'); next = peek()) {
      at++;
      const right = term();
      value = add(value, next.text === '+' ? right : scale(right, Fraction.of(-1)));
    }
    return value;
  };
  const term = (): Linear => {
    let value = factor();
    for (let next = peek(); next?.kind === 'op' && next.text === '*'; next = peek()) {
      at++;
      const right = factor();
      if (value.weights.size > 0 && right.weights.size > 0)
        throw problem('a product of two metrics is not a weighted sum');
      value = value.weights.size > 0 ? scale(value, right.constant) : scale(right, value.constant);
    }
    return value;
  };
  const factor = (): Linear => {
    const token = peek();
    if (token === undefined) throw problem('it ends where a number or a metric was expected');
    at++;
    if (token.kind === 'number') return { weights: new Map(), constant: Fraction.fromDecimal(token.text) };
    if (token.kind === 'name') {
      if (!metrics.includes(token.text))
        throw new UsageError(
          `${option}: ${JSON.stringify(token.text)} is not a metric of this rule at these parameters` +
            `${didYouMean(token.text, metrics)}; allowed: ${ALLOWED}`,
        );
      return { weights: new Map([[token.text, Fraction.ONE]]), constant: Fraction.ZERO };
    }
    if (token.text === '-') return scale(factor(), Fraction.of(-1));
    if (token.text === '+') return factor();
    if (token.text === '(') {
      const inner = sum();
      const close = peek();
      if (close?.kind !== 'op' || close.text !== ')') throw problem('a "(" is not closed');
      at++;
      return inner;
    }
    throw problem(`"${token.text}" where a number or a metric was expected`);
  };

  const value = sum();
  if (at < tokens.length) throw problem(`"${tokens[at].text}" where + - * or the end was expected`);
  const weights = new Map([...value.weights].filter(([, weight]) => weight.numerator !== 0n));
  if (weights.size === 0) throw problem('it names no metric with a weight other than 0');
  return { text: trimmed, weights, constant: value.constant };
}

/**
 * The names an objective's text holds, as parseObjective reads them (the whole text where it is one name), before
 * they are checked: a caller wraps the rule with the distribution tails among them (analysis/tails.ts). Empty where
 * the text does not read; parseObjective then says why.
 */
export function objectiveNames(text: string | undefined): string[] {
  if (text === undefined) return [];
  const trimmed = text.trim();
  try {
    const names = tokenize(trimmed, (what) => new UsageError(what))
      .filter((token) => token.kind === 'name')
      .map((token) => token.text);
    return [trimmed, ...names];
  } catch {
    return [trimmed];
  }
}

/** The objective's value where each metric has the value `metricValue` gives. */
export function evaluateObjective(objective: Objective, metricValue: (metric: string) => Fraction): Fraction {
  let total = objective.constant;
  for (const [metric, weight] of objective.weights) total = total.add(weight.mul(metricValue(metric)));
  return total;
}

interface Linear {
  weights: Map<string, Fraction>;
  constant: Fraction;
}

function add(x: Linear, y: Linear): Linear {
  const weights = new Map(x.weights);
  for (const [metric, weight] of y.weights) weights.set(metric, (weights.get(metric) ?? Fraction.ZERO).add(weight));
  return { weights, constant: x.constant.add(y.constant) };
}

function scale(x: Linear, by: Fraction): Linear {
  return {
    weights: new Map([...x.weights].map(([metric, weight]) => [metric, weight.mul(by)])),
    constant: x.constant.mul(by),
  };
}

function tokenize(text: string, problem: (what: string) => UsageError): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (/\s/.test(char)) {
      at++;
    } else if (OPERATORS.includes(char)) {
      tokens.push({ kind: 'op', text: char });
      at++;
    } else if (char === '"') {
      const end = text.indexOf('"', at + 1);
      if (end < 0) throw problem('a quoted name is not closed');
      tokens.push({ kind: 'name', text: text.slice(at + 1, end) });
      at = end + 1;
    } else {
      let end = at;
      while (end < text.length && !/\s/.test(text[end]) && !OPERATORS.includes(text[end]) && text[end] !== '"') end++;
      const word = text.slice(at, end);
      tokens.push({ kind: /^(\d+(\.\d*)?|\.\d+)$/.test(word) ? 'number' : 'name', text: word });
      at = end;
    }
  }
  return tokens;
}

/** An objective as slots of a metric list: each metric's index and exact weight, and the constant. */
export interface ObjectiveTerms {
  terms: Array<readonly [number, Fraction]>;
  constant: Fraction;
}

/** Reads `text` (a metric, or a weighted sum) against the metric names, as indices into them; throws a UsageError. */
export function objectiveTerms(text: string, names: readonly string[]): ObjectiveTerms {
  const objective = parseObjective(text, names, 'objective');
  return {
    terms: [...objective.weights].map(([name, weight]) => [names.indexOf(name), weight] as const),
    constant: objective.constant,
  };
}

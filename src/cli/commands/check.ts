/**
 * `muster check <rule file>`: does the rule file agree with itself? At its
 * defaults and a spread of parameter points (each parameter alone moved to
 * its extremes, its middle, its other choices), it compares
 *
 *   exact() ══ enumeration of its own dice      (where both exist: fraction for fraction)
 *   exact values ── simulation                  (always: within 5 standard errors)
 *
 * and lists every disagreement: metric, point, both values, z. Exit status
 * 1 on any, so a test or CI job can run it; NOTHING_CHECKED (3) when no
 * point had exact values to compare, so "nothing checked" never passes as
 * agreement. A point past the enumeration's budget is noted, not failed,
 * and not simulated: the simulation runs only where it is compared. A point
 * the rule's validate refuses, or past the most a check tries, is listed
 * with why it was skipped.
 */

import { buildResult } from '../../analysis/result-of.js';
import type { ParamSpec, Params, Rule } from '../../contract/types.js';
import { CHUNK_TRIALS } from '../../engine/chunks.js';
import { DEFAULT_STREAM } from '../../engine/random.js';
import { runChunks } from '../../engine/run-chunks.js';
import { parseTimeout } from '../../engine/settings.js';
import { UsageError } from '../../errors.js';
import type { Fraction } from '../../exact/fraction.js';
import { NotEnumerable } from '../../exact/replay-dice.js';
import type { Io } from '../../output/io.js';
import { isRulePath, loadRule } from '../../rule-files/load.js';
import { resolveParams } from '../../rules/params.js';
import { FAR_SIGMAS, formatSigmas, sigmasFromExact } from '../exact-agreement.js';
import { parseSeed } from '../options.js';

interface CheckOptions {
  set?: string[];
  trials?: string;
  seed?: string;
  /** Checked here; the supervisor stops a rule file's call that runs past it (cli/supervisor.ts). */
  timeout?: string;
}

interface Disagreement {
  point: string;
  metric: string;
  /** 'exact() and enumeration' or 'simulation and exact'. */
  between: string;
  values: [string, string];
  sigmas: number | null;
}

interface CheckResult {
  points: number;
  /** Points of the spread not run: the rule's validate refused them, or the check had tried its most. */
  skipped: Array<{ label: string; why: string }>;
  /** The points where something was compared. */
  checked: number;
  disagreements: Disagreement[];
  notes: string[];
}

const DEFAULT_TRIALS = 2 * CHUNK_TRIALS;
const MOST_POINTS = 16;
/** The exit status of a check that compared nothing (docs/commands.md): not agreement, not a disagreement. */
export const NOTHING_CHECKED = 3;
const GUIDE = 'docs/custom-rules.md, "Exact without writing it"';
/** The guide's section, unless the remedy names it already. */
const GUIDE_TEXT = (refusal: NotEnumerable | null) => (refusal?.remedy.includes(GUIDE) ? '' : `: ${GUIDE}`);
const CONFIDENCE = 0.95;

export async function checkCommand(ruleRef: string, options: CheckOptions, io: Io): Promise<CheckResult> {
  if (!isRulePath(ruleRef))
    throw new UsageError(
      `check: got ${JSON.stringify(ruleRef)}; allowed: a rule file ` +
        `(./my-rule.mjs): the built-in rules are checked by muster's own tests`,
    );
  if (options.timeout !== undefined) parseTimeout(options.timeout);
  const rule = await loadRule(ruleRef);
  const trials = options.trials === undefined ? DEFAULT_TRIALS : Number(options.trials);
  if (!Number.isSafeInteger(trials) || trials < 1000 || trials > 100_000_000)
    throw new UsageError(
      `--trials: got ${JSON.stringify(options.trials)}; allowed: a whole number from 1000 to 100000000`,
    );
  const seed = parseSeed(options.seed ?? 'muster-check');
  const base = resolveParams(rule, options.set ?? []);
  const { points, skipped } = spread(rule, base, options.set ?? []);
  const disagreements: Disagreement[] = [];
  const notes: string[] = [];
  const handWritten = rule.exact?.by !== 'enumeration';
  /** Points where something was compared: exact() with the enumeration, or exact values with the simulation. */
  let checked = 0;
  /** The first refusal to enumerate, whose remedy the last line offers when nothing could be checked. */
  let refused: NotEnumerable | null = null;
  const skippedText = skipped.length > 0 ? ` (${skipped.length} more skipped, listed below)` : '';
  io.out(
    `check ${ruleRef} (rule ${rule.id}): ${points.length} point${points.length === 1 ? '' : 's'}${skippedText}; ` +
      `${handWritten ? 'exact() against enumeration, and ' : ''}exact values against simulation ` +
      `(${trials.toLocaleString('en-US')} trials a point, seed ${seed}, within ${FAR_SIGMAS} standard errors)\n`,
  );
  for (const { label, params } of points) {
    const point = checkPoint(rule, { label, params }, { seed, trials, handWritten }, disagreements, notes);
    refused ??= point.refused;
    const { found, compared } = point;
    if (compared) checked++;
    io.out(
      `  ${found.length > 0 ? 'FAIL' : compared ? 'ok  ' : '—   '}  ` +
        `${label}${found.length > 0 ? `: ${[...new Set(found)].join(', ')}` : compared ? '' : ': not checked'}\n`,
    );
  }
  for (const { label, why } of skipped) io.out(`  skip  ${label}: ${why}\n`);
  for (const note of notes) io.out(`  note: ${note}\n`);
  if (disagreements.length === 0) {
    io.out(
      checked === 0
        ? 'nothing checked: no point has exact values to hold the simulation against (write exact(), or ' +
            `${refused?.remedy ?? 'the step form, which muster can enumerate'}${GUIDE_TEXT(refused)})\n`
        : checked === points.length
          ? `agreed at every point${skipped.length > 0 ? ` run (${skipped.length} skipped, listed above)` : ''}\n`
          : `agreed at the ${checked} of ${points.length} points checked\n`,
    );
  } else {
    io.out(`${disagreements.length} disagreement${disagreements.length === 1 ? '' : 's'}:\n`);
    for (const d of disagreements) {
      const [first, second] =
        d.between === 'exact() and ' + 'enumeration' ? ['exact()', 'enumeration'] : ['simulation', 'exact'];
      io.out(
        `  ${d.point}: ${d.metric}: ${first} ${d.values[0]}, ${second} ` +
          `${d.values[1]}${d.sigmas === null ? '' : ` (z = ${formatSigmas(d.sigmas)})`}\n`,
      );
    }
    process.exitCode = 1;
  }
  if (disagreements.length === 0 && checked === 0) process.exitCode = NOTHING_CHECKED;
  return { points: points.length, skipped, checked, disagreements, notes };
}

/**
 * One point checked: exact() against the enumeration (a hand-written exact()), then the exact values against
 * the simulation. Adds what disagrees to `disagreements` and what could not be done to `notes`; returns the
 * metrics found wrong, whether anything was compared (a point with nothing to hold against anything is not
 * "ok": it was not checked), and the enumeration's refusal, if any.
 */
function checkPoint(
  rule: Rule,
  { label, params }: { label: string; params: Params },
  { seed, trials, handWritten }: { seed: string; trials: number; handWritten: boolean },
  disagreements: Disagreement[],
  notes: string[],
): { found: string[]; compared: boolean; refused: NotEnumerable | null } {
  const found: string[] = [];
  let refused: NotEnumerable | null = null;
  const exact = handWritten && rule.exact ? rule.exact.values(params) : null;
  let enumerated: Record<string, Fraction> | null = null;
  try {
    enumerated = rule.exact?.enumerate ? rule.exact.enumerate(params) : null;
  } catch (error) {
    if (!(error instanceof NotEnumerable)) throw error;
    // The reason without its advice: check goes on with the simulation against exact() there.
    refused = error;
    notes.push(`${label}: not enumerated: ${error.reason}`);
  }
  if (exact && enumerated) {
    for (const metric of rule.metrics(params)) {
      const [a, b] = [exact[metric.name], enumerated[metric.name]];
      if (!a.equals(b)) {
        disagreements.push({
          point: label,
          metric: metric.name,
          between: 'exact() and ' + 'enumeration',
          values: [a.toString(), b.toString()],
          sigmas: null,
        });
        found.push(metric.name);
      }
    }
  }
  const reference = exact ?? enumerated;
  if (reference) {
    const chunks = { firstChunk: 0, endChunk: Math.ceil(trials / CHUNK_TRIALS), totalTrials: trials };
    const tally = runChunks({ ruleId: rule.id, params, seed, stream: DEFAULT_STREAM, ...chunks }, rule);
    const checked = { ...rule, exact: { ...rule.exact, values: () => reference } };
    const simulated = { params, seed, stream: DEFAULT_STREAM, threads: 1, confidence: CONFIDENCE, trials, tally };
    const result = buildResult({ rule: checked, ...simulated });
    for (const [metric, value] of Object.entries(result.metrics)) {
      const sigmas = sigmasFromExact(value, CONFIDENCE, trials);
      if (sigmas === null || sigmas <= FAR_SIGMAS) continue;
      disagreements.push({
        point: label,
        metric,
        between: 'simulation and ' + 'exact',
        values: [String(value.estimate), value.fraction ?? String(value.exact)],
        sigmas,
      });
      found.push(metric);
    }
  } else {
    notes.push(`${label}: no exact values, so the simulation is not checked there`);
  }
  return { found, compared: reference !== null, refused };
}

/**
 * The defaults (after --set), then each parameter not set moved alone: extremes and middle, or its other values;
 * with the points not run and why (a combination the rule's validate refuses, or past MOST_POINTS).
 */
function spread(
  rule: Rule,
  base: Params,
  set: readonly string[],
): { points: Array<{ label: string; params: Params }>; skipped: Array<{ label: string; why: string }> } {
  const fixed = new Set(set.map((assignment) => assignment.slice(0, assignment.indexOf('=')).trim()));
  const points = [{ label: labelOf(rule, base, null), params: base }];
  const skipped: Array<{ label: string; why: string }> = [];
  const seen = new Set([JSON.stringify(base)]);
  for (const spec of rule.params) {
    if (fixed.has(spec.name)) continue;
    for (const value of valuesOf(spec)) {
      const label = `${spec.name}=${String(value)}`;
      if (points.length >= MOST_POINTS) {
        skipped.push({
          label,
          why: `past the ${MOST_POINTS} points a check tries (--set ${spec.name}=${String(value)} checks around it)`,
        });
        continue;
      }
      let params: Params;
      try {
        params = resolveParams(rule, set, { [spec.name]: value });
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        // A combination the rule refuses at these settings: said, with the rule's own words, not passed over.
        skipped.push({ label, why: `refused at these settings: ${error.message}` });
        continue;
      }
      const key = JSON.stringify(params);
      if (seen.has(key)) continue;
      seen.add(key);
      points.push({ label: labelOf(rule, params, spec.name), params });
    }
  }
  return { points, skipped };
}

function valuesOf(spec: ParamSpec): Array<number | boolean | string> {
  switch (spec.type) {
    case 'integer':
      return [spec.min, Math.round((spec.min + spec.max) / 2), spec.max];
    case 'number':
      return [spec.min, Number(((spec.min + spec.max) / 2).toPrecision(6)), spec.max];
    case 'boolean':
      return [!spec.default];
    case 'choice':
      return spec.choices.filter((choice) => choice !== spec.default);
    default:
      return [];
  }
}

function labelOf(rule: Rule, params: Params, moved: string | null): string {
  if (moved === null)
    return rule.params.length === 0
      ? 'the rule (no parameters)'
      : `defaults (${rule.params.map((p) => `${p.name}=${String(params[p.name])}`).join(' ')})`;
  return `${moved}=${String(params[moved])}`;
}

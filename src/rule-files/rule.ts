/**
 * A designer's own rule, written as a plain object in one file (see
 * docs/custom-rules.md for the contract), adapted to the engine's Rule
 * interface so that the pool, streams, sweeps, comparisons, shards and
 * reports treat it like a built-in rule. Four phases, each its own module,
 * each handing the next a typed value:
 *
 *   default export
 *     ─► check  (check.ts)            field by field, UsageError naming the file ─► CheckedRuleFile
 *     ─► tally  (tally.ts)            each parameter set's metrics laid out in the tally ─► TallyLayout
 *     ─► loop   (loop.ts)             tally.simulate, once per chunk: dice on the chunk's stream, one `out`
 *                                     read after every trial by a loop compiled for these metric names
 *     ─► adapt  (here)                the Rule: metrics, validate, its tally group, its exact group (the
 *                                     file's exact(), or its dice enumerated: exact.ts), its presentation
 *
 * No node: imports here: the offline calculator page bundles this module
 * (the file system and import() live in load.ts).
 */

import type { ParamSpec, Params, Rule, RuleExact, RulePresentation } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { parseObjective } from '../exact/objective.js';
import { ruleCall } from '../guard/rule-calls.js';
import { describeValue } from '../guard/rule-text.js';
import { keyedRecord } from '../keyed.js';
import type { CheckedRuleFile } from './check.js';
import { checkRuleFile } from './check.js';
import { enumeratedExact } from './exact.js';
import { ChunkLoops, MAX_OUTCOMES } from './loop.js';
import { stepTrial } from './steps.js';
import { checkTally, summarize, type TallyLayout, tallyLayout } from './tally.js';

/**
 * Checks a rule file's default export and returns it as a Rule. `origin` is
 * how messages name the file (the path as the user gave it). Every mistake
 * is a UsageError: one line naming the file, the rule and what is wrong.
 */
export function adaptRuleFile(moduleDefault: unknown, origin: string): Rule {
  const file = checkRuleFile(moduleDefault, origin);
  const { where, fail, form } = file;

  const layouts = new Map<string, TallyLayout>();
  const layoutOf = (p: Params): TallyLayout => {
    const key = JSON.stringify(p);
    let layout = layouts.get(key);
    if (!layout) {
      layout = tallyLayout(file.metrics(p));
      if (layouts.size > 1000) layouts.clear();
      layouts.set(key, layout);
    }
    return layout;
  };
  const metrics = (p: Params) => layoutOf(p).metrics;

  // The rule's own dice enumerated (exact.ts), within a budget: its exact values where it has no exact().
  const enumerated = enumeratedExact({
    where,
    trial: file.trial,
    form,
    setup: file.setup,
    outcomes: file.outcomes,
    read: file.read,
    metrics,
    fail,
    describe: describeValue,
    maxOutcomes: MAX_OUTCOMES,
    label: file.label,
  });
  // Marked as one call (rule-calls.ts): a trial or step that loops while it is enumerated is named and stopped.
  const walked = form
    ? 'start, step, done and report (enumerating their dice)'
    : 'trial(dice, params, out) (enumerating its dice)';
  const decisions = (p: Params) => ruleCall(where, walked, () => enumerated.decisions(p));
  const play = (p: Params) => decisions(p).play;
  const trial = form
    ? stepTrial(form, (p: Params) => file.metrics(p), fail, describeValue, play)
    : (file.trial as Function);
  const loops = new ChunkLoops({ ...file, trial });
  const params = form?.choices ? [...file.params, objectiveParam(file)] : file.params;

  const enumerate = (p: Params, budget?: number) => ruleCall(where, walked, () => enumerated.values(p, budget));
  const own = file.exact;
  // Without the file's exact(), its dice enumerated are its exact values; asked for distributions only once exact
  // values are known at these params, the enumeration kept then answers at once.
  const exact: RuleExact = own
    ? { values: (p) => own(p, metrics(p)), enumerate }
    : {
        values: (p) => enumerate(p),
        by: 'enumeration',
        distributions: (p) => ruleCall(where, walked, () => enumerated.distributions(p)),
        enumerate,
      };

  const rule: Rule = {
    id: file.id,
    title: file.title,
    summary: file.summary,
    source: file.source,
    params,
    metrics,
    tally: {
      length: (p) => layoutOf(p).length,
      simulate: (p, rng, trials, tally) => loops.simulate(p, layoutOf(p), rng, trials, tally),
      check: (p, tally, trials) => checkTally(layoutOf(p), tally, trials),
      summarize: (p, tally, trials) => summarize(layoutOf(p), tally, trials),
    },
    exact,
  };
  if (file.validate) rule.validate = file.validate;
  if (form?.choices) {
    const validate = file.validate;
    rule.validate = (p) => {
      validate?.(p);
      // A metric of the rule at p, or a weighted sum of them (src/exact/objective.ts): refused in one line if not.
      parseObjective(
        String(p.objective),
        metrics(p).map((m) => m.name),
        'objective',
      );
    };
    exact.decisions = decisions;
  }

  const presentation: RulePresentation = {};
  const headline = file.headline;
  if (headline) presentation.headline = (p) => headline(p, metrics(p));
  if (file.readings) presentation.readings = file.readings;
  if (file.matrix) presentation.matrix = file.matrix;
  if (file.presentation) presentation.declared = file.presentation;
  if (Object.keys(presentation).length > 0) rule.presentation = presentation;
  return rule;
}

/**
 * The parameter every rule with decisions has: the metric side a plays for (side b plays against it). Its default is
 * the file's objective, else its first headline metric, else its first metric, at the default parameters.
 */
function objectiveParam(file: CheckedRuleFile): ParamSpec {
  const defaults: Params = keyedRecord(file.params.map((p) => [p.name, p.default]));
  const list = file.metrics(defaults);
  const names = list.map((m) => m.name);
  const fallback = file.headline?.(defaults, list)[0] ?? names[0];
  const chosen = file.objective ?? fallback;
  // A metric, or a weighted sum of metrics such as "a.wins + 0.5*a.margin" (src/exact/objective.ts).
  try {
    parseObjective(chosen, names, 'objective');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    file.fail(error.message);
  }
  return {
    name: 'objective',
    type: 'text',
    default: chosen,
    allowed:
      `the name of a metric (${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''}) or a weighted sum ` +
      'of metrics, such as "a + 0.5*b"',
    parse: (raw: string) => {
      if (raw === '' || raw.length > 200)
        throw new UsageError(
          `objective: got ${JSON.stringify(raw.slice(0, 200))}; allowed: the name of a metric, one of ` +
            `${names.join(', ')}, or a weighted sum of them of at most 200 characters`,
        );
      return raw;
    },
    doc:
      'the metric (or weighted sum of metrics) side a plays for at its decisions, and side b against ' +
      '(docs/custom-rules.md, "Decisions")',
  };
}

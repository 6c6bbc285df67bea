import type { MetricSpec, ParamSpec, Params, Reading, StreamVersion } from '../../contract/types.js';
import type { RunResult } from '../../result.js';

/**
 * What the page asks the sandbox worker: load a rule file's text (its file name for messages), or answer a question
 * about it. `options` is null when the page found the simulation's options wrong (they are then not needed unless the
 * answer is simulated).
 */
export type SandboxRequest =
  | { kind: 'load'; id: number; source: string; name: string }
  | {
      kind: 'answer';
      id: number;
      raw: Record<string, string>;
      simulate: boolean;
      options: { trials: number; seed: string; stream: StreamVersion } | null;
    };

/** The parts of a rule the page shows without calling it: all plain data. */
export interface RuleDescription {
  id: string;
  title: string;
  summary: string;
  source: string;
  /** A text parameter without its parser (a function cannot be posted): the sandbox checks the form. */
  params: Array<ParamSpec | Omit<Extract<ParamSpec, { type: 'text' }>, 'parse'>>;
  /** Whether the rule has an exact answer (its own exact(), or its dice enumerated). */
  exact: boolean;
}

/** An answer: the result as muster run builds it, with what the views ask of the rule at these parameters. */
export interface SandboxAnswer {
  result: RunResult;
  /** Metric name → [numerator, denominator] of its exact value; null with no exact value. */
  fractions: Array<[string, bigint, bigint]> | null;
  metrics: MetricSpec[];
  headline: string[] | null;
  readings: Reading[];
}

export type SandboxReply =
  | { kind: 'loaded'; id: number; rule: RuleDescription }
  | { kind: 'refused'; id: number; message: string }
  | { kind: 'progress'; id: number; done: number; total: number }
  | {
      kind: 'answered';
      id: number;
      params: Params | null;
      fieldErrors: Array<[string, string]>;
      formErrors: string[];
      /** Enumeration past its budget: simulated although the box was not ticked. */
      forced: boolean;
      answer: SandboxAnswer | null;
    }
  | { kind: 'fault'; id: number; message: string; usage: boolean };

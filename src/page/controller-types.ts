/**
 * The calculator's (./controller.ts) record types: how long a recompute
 * took, the change being answered, and the simulation's options as parsed.
 */
import type { StreamVersion } from '../contract/types.js';

/** How long the last recompute took, in milliseconds (scripts/bench/app.ts reads them). */
export interface Timings {
  /**
   * From the change to the result built: parameters read, exact values or, for a simulation, every chunk run and
   * merged and the tally turned into the result.
   */
  compute: number;
  /** From the change to the simulation's last chunk merged (0 when solved exactly). */
  simulation: number;
  /** Headline and table written. */
  text: number;
  /** From the change to the rule's first chart on the page: the new answer and chart in full view. */
  firstChart: number;
  /** Drawing every chart. */
  charts: number;
  /** From the change to the last chart. */
  total: number;
}

/** One change being answered: its generation, when it began, and how to say it is fully shown. */
export interface Turn {
  mine: number;
  started: number;
  finish(): void;
}

/** The simulation's options, parsed; `wrong` names those that did not parse (each has its message by the field). */
export interface Options {
  trials: number;
  seed: string;
  stream: StreamVersion;
  wrong: string[];
}

/**
 * How a step's paths find the index of the state each reached (enumerate-steps.ts's stepOutcomes). Most paths of a
 * step reach a state that the path before it or one of the last few reached (36 paths of a squad's 2d6, two
 * states): such a state is found by value among those few, with no text written and no map asked; the others by
 * their text.
 *
 *   replay (both runs of a path) ─► bothAt: found by their fields (matchFlat), told apart from all, or neither
 *   visit ─► find: the state found by its fields; else by value (sameState); else its text ─► index.add
 *
 * No node: imports: the calculator page enumerates in the browser.
 */
import { type FlatShape, matchFlat, OTHER, SAME, sameState, UNTOLD } from './canonical-state.js';

/** How a step finds a next state's index: by text (`add`), or by value among the states found before. */
export interface StateIndex {
  add: (text: string, kept: { state: unknown; from: string }) => number;
  /** Each state found so far as a step receives it (sameState compares against it). */
  frozen: readonly unknown[];
  /** Each state's fields in the order its step wrote them, where all hold a plain value (matchFlat). */
  shapes: ReadonlyArray<FlatShape | null>;
  /** The text of the state stepped from, for a message. */
  from: string;
  textOf: (state: unknown) => string;
  strictText: (state: unknown) => string;
  /** Whether an error thrown while a state was found is the state's own fault, thrown on as it is. */
  fatal: (error: unknown) => boolean;
  byValue: ByValue;
}

/**
 * How often, over the steps walked so far, a next state was found by value among the last few: where a step's
 * paths each reach a state of their own (a round of 2d6 reserves: squads + 1 paths, squads + 1 states) the
 * comparisons are all lost work, so they are made only while one in four finds its state, and on one path in
 * sixteen besides, so that a rule whose steps change is noticed. Either way the state found is the same one.
 */
export interface ByValue {
  tries: number;
  hits: number;
  skipped: number;
}

/** How many of the states a step reached last are compared by value before a next state's text is written. */
const RECENT = 4;
/** A path whose state was found by its fields among none of them (matchFlat could not tell for one at least). */
const FOUND_NONE = -1;
/** A path whose state each of them was told apart from by its fields: no state is compared again, its text is written. */
const FOUND_OTHER = -2;

/** One state's step: the states its paths reached last, and the index of each path's next state. */
export class NextStates {
  readonly #index: StateIndex;
  readonly #kept: { state: unknown; from: string };
  /** The states found last, the latest first (at most RECENT). */
  readonly #recent: number[] = [];
  /** The state the last path reached. */
  #last = -1;
  /** This path's: whether its state is looked for by value (byValue). */
  #looking = false;
  /** This path's: the state its two runs were found to reach by their fields, FOUND_NONE or FOUND_OTHER. */
  #found = FOUND_NONE;

  constructor(index: StateIndex) {
    this.#index = index;
    this.#kept = { state: null, from: index.from };
  }

  /**
   * Asked first on each path, by the replay, with both runs' states: whether both are one state found by its
   * fields among the last few (then find takes it without another look).
   */
  bothAt(first: unknown, second: unknown): boolean {
    const { byValue, shapes } = this.#index;
    this.#looking = byValue.hits * 4 >= byValue.tries || ++byValue.skipped % 16 === 0;
    this.#found = FOUND_NONE;
    if (!this.#looking) return false;
    const at = this.#byFields(first);
    if (at < 0) {
      this.#found = at;
      return false;
    }
    if (matchFlat(second, shapes[at] as FlatShape) !== SAME) return false;
    this.#found = at;
    return true;
  }

  /** The index of the state this path reached: found among the last few, or by its text (a new one added). */
  find(state: unknown): number {
    const index = this.#index;
    let text: string;
    try {
      if (this.#looking) {
        const { byValue, frozen } = index;
        if (++byValue.tries >= 1024) {
          byValue.tries /= 2;
          byValue.hits /= 2;
        }
        const found = this.#found;
        const last = this.#last;
        if (found >= 0) return this.#compared(found);
        if (found === FOUND_NONE) {
          if (last >= 0 && sameState(state, frozen[last])) return this.#compared(last);
          const recent = this.#recent;
          for (let r = 0; r < recent.length; r++)
            if (recent[r] !== last && sameState(state, frozen[recent[r]])) return this.#compared(recent[r]);
        }
      }
      text = index.textOf(state);
    } catch (error) {
      if (index.fatal(error)) throw error;
      // A field that throws when read (a getter, a Proxy's trap): the full check names it without reading it.
      text = index.strictText(state);
    }
    const kept = this.#kept;
    kept.state = state;
    const at = index.add(text, kept);
    const recent = this.#recent;
    if (recent.length === RECENT) recent.pop();
    recent.unshift(at);
    this.#last = at;
    return at;
  }

  /** A state found by value: counted for byValue, and the last path's. */
  #compared(at: number): number {
    this.#index.byValue.hits++;
    this.#last = at;
    return at;
  }

  /** The state among the last few that `state` is by its fields; FOUND_OTHER or FOUND_NONE where none is. */
  #byFields(state: unknown): number {
    const { shapes } = this.#index;
    const recent = this.#recent;
    const last = this.#last;
    let told = true;
    // The state the last path reached (r = -1), then the others of the last few.
    for (let r = -1; r < recent.length; r++) {
      const at = r < 0 ? last : recent[r];
      if (at < 0 || (r >= 0 && at === last)) continue;
      const shape = shapes[at];
      const match = shape === null ? UNTOLD : matchFlat(state, shape);
      if (match === SAME) return at;
      if (match !== OTHER) told = false;
    }
    return told ? FOUND_OTHER : FOUND_NONE;
  }
}

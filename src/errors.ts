/**
 * A mistake in what the user asked for. The CLI turns it into one line on
 * stderr and exit status 2; nothing is written before it is thrown.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

/** Builds the house wording: `<parameter>: <problem>; allowed: <what is allowed>`. */
export function badValue(parameter: string, given: string, allowed: string): UsageError {
  return new UsageError(`${parameter}: got ${JSON.stringify(given)}; allowed: ${allowed}`);
}

/**
 * A command cut short by Ctrl-C or SIGTERM that has nothing whole to show
 * (a shard, which merge needs whole; a --verify that did not finish): the
 * top-level catch prints its message as one PARTIAL line and exits 130
 * (143 after SIGTERM), never 2, which would say the input was wrong.
 */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

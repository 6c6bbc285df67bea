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

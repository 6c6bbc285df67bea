/**
 * What the library tests share: the CLI's own answer to the same question, run in-process as a user runs it (the
 * independent source a library result is held to), and the one line a refused call gives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../src/cli.js';
import { UsageError } from '../../src/errors.js';
import { bufferIo } from './io.js';

/** What the CLI writes with --json for `argv` (to `name`.json in `folder`, with --quiet); the run must succeed. */
export async function cliJsonText(folder: string, name: string, argv: string[]): Promise<string> {
  const file = join(folder, `${name}.json`);
  const io = bufferIo();
  const status = await main([...argv, '--json', file, '--quiet'], io);
  expect(status, io.stderr()).toBe(0);
  return readFileSync(file, 'utf8');
}

/** The message of the UsageError `call` is refused with; a call that is not refused fails the test. */
export async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { main } from '../../src/cli.js';
import { bufferIo } from './io.js';

/** Runs the CLI in-process on `argv` and returns its exit status and what it printed. */
export async function cli(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const io = bufferIo();
  const status = await main(argv, io);
  return { status, stdout: io.stdout(), stderr: io.stderr() };
}

/**
 * A temporary folder for a test file's outputs, removed after the file's
 * tests; also clears the exit status a partial run may have set.
 */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), `muster-${prefix}-`));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  afterEach(() => {
    process.exitCode = undefined;
  });
  return folder;
}

/**
 * The default thread count (src/engine/threads.ts), which the option parsers use without importing a Node module:
 * in Node it is os.availableParallelism(), the count --threads defaulted to before, whether or not the pool's module
 * has handed it over.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseThreads } from '../../src/engine/settings.js';

describe('the default thread count', () => {
  it('is os.availableParallelism() before the pool loads, and after', async () => {
    const { defaultThreads } = await import('../../src/engine/threads.js');
    expect(defaultThreads()).toBe(availableParallelism());
    await import('../../src/engine/pool.js');
    expect(defaultThreads()).toBe(availableParallelism());
    expect(parseThreads(undefined)).toBe(availableParallelism());
  });
});

/**
 * What piscina reports on the pool itself, for a thread with no task in flight: thrown (a bug) but for the two
 * cases where nothing is lost, a result that came back after its task was aborted and a thread that ran out of
 * memory once its task was aborted (an exact grid stopped at a failing point ends the threads past it). The second
 * was an internal error in 1 of 4 runs of a grid whose later points allocate without end.
 */
import { describe, expect, it } from 'vitest';
import { poolError } from '../../src/engine/pool.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('poolError', () => {
  it('lets pass a late result and a thread out of memory, nothing else', () => {
    expect(() => poolError(new Error('Unexpected message from Worker: { taskId: 3 }'))).not.toThrow();
    expect(() =>
      poolError(
        withCode('Worker terminated due to reaching memory limit: JS heap out of memory', 'ERR_WORKER_OUT_OF_MEMORY'),
      ),
    ).not.toThrow();
    const other = withCode('the worker stopped', 'ERR_WORKER_INIT_FAILED');
    expect(() => poolError(other)).toThrow(other);
    expect(() => poolError(new TypeError('x is undefined'))).toThrow(TypeError);
    // Only an Error carries the code: a thrown value that merely looks like one is a bug.
    expect(() => poolError({ code: 'ERR_WORKER_OUT_OF_MEMORY' })).toThrow();
  });
});

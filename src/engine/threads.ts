/**
 * How many threads to use when none are asked for: every core this process may use. The option parsers that call
 * this are bundled into the calculator page and the browser library, so nothing here imports a Node module: in Node
 * the count is os.availableParallelism(), handed over by the pool's module (engine/pool.ts, which every Node client
 * loads) or reached through process.getBuiltinModule; in a browser, navigator.hardwareConcurrency; else 1.
 */
let nodeCores: (() => number) | null = null;

/** The pool's module hands over Node's core count (os.availableParallelism) as it loads. */
export function useNodeCores(count: () => number): void {
  nodeCores = count;
}

export function defaultThreads(): number {
  if (nodeCores) return nodeCores();
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = node?.getBuiltinModule?.('node:os') as { availableParallelism(): number } | undefined;
  if (os) return os.availableParallelism();
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && Number.isInteger(cores) && cores > 0 ? cores : 1;
}

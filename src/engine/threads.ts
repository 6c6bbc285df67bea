/**
 * How many threads to use when none are asked for: every core this process may use. In Node that is
 * os.availableParallelism(), reached through process.getBuiltinModule so that nothing here imports a Node module
 * (the option parsers that call this are bundled into the calculator page and the browser library); in a browser,
 * navigator.hardwareConcurrency; else 1.
 */
export function defaultThreads(): number {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = node?.getBuiltinModule?.('node:os') as { availableParallelism(): number } | undefined;
  if (os) return os.availableParallelism();
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && Number.isInteger(cores) && cores > 0 ? cores : 1;
}

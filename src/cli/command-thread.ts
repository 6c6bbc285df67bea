/**
 * The rule thread: a worker thread that runs one CLI command whose rule is
 * a rule file, under the main thread's supervision (cli/supervisor.ts).
 *
 *   supervisor ─► workerData { argv, terminal facts, marker } ─► main(argv, io) here
 *   io.out / io.err ─► messages ─► the supervisor writes them to the real stdout / stderr
 *   argv parsed ─► { timeout } ─► the supervisor's watch (the main thread may not have parsed argv at all)
 *   signals: the supervisor hears them and sends { signal } ─► signalled()
 *   end: { done: status }, or a fault the supervisor reads from the marker
 */
import { parentPort, workerData } from 'node:worker_threads';
import { noteExit, watchRuleCalls } from '../guard/rule-calls.js';
import { thrownByRuleFile } from '../guard/rule-faults.js';
import { holdSignals, signalled } from '../output/interrupt.js';
import type { Io } from '../output/io.js';
import type { RuleThreadData, RuleThreadMessage } from './thread-messages.js';

const port = parentPort;
if (!port) throw new Error('command-thread.js runs only as a worker thread');
const data = workerData as RuleThreadData;
const tell = (message: RuleThreadMessage) => port.postMessage(message);

watchRuleCalls(data.marker);
// process.exit in a worker ends only the thread; noted, so the supervisor can say that the rule code called it.
const exit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  noteExit(code);
  return exit(code as number);
}) as typeof process.exit;

// Held for the thread's life, as the CLI's entry holds them for the process: a signal passed on before the
// command starts still counts.
holdSignals();
port.on('message', (message: { signal?: 'SIGINT' | 'SIGTERM' }) => {
  if (message.signal) signalled(message.signal);
});
// The port alone does not keep the thread alive: a rule file's top-level await that never settles then ends
// the thread (exit code 13), which the supervisor reports, instead of waiting forever.
port.unref();

// An error thrown from a rule's timer or promise, outside any call muster made: the rule's, when its stack
// runs through a rule file (a file: URL muster imported with its hash, or a TypeScript rule's data: URL).
const onUncaught = (error: unknown) => {
  const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const blamed = thrownByRuleFile(stack);
  tell({ uncaught: blamed && error instanceof Error ? `${error.name}: ${error.message}` : stack, blamed });
  exit(1);
};
process.on('uncaughtException', onUncaught);
process.on('unhandledRejection', onUncaught);

const io: Io = {
  out: (text) => tell({ out: text }),
  err: (text) => tell({ err: text }),
  errIsTTY: data.errIsTTY,
  columns: data.columns,
};

const { main } = await import('../cli.js');
try {
  tell({ done: await main(data.argv, io, (timeout) => tell({ timeout })) });
} catch (error) {
  tell({ internal: error instanceof Error ? (error.stack ?? String(error)) : String(error) });
}

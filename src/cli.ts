#!/usr/bin/env node
/**
 * muster's command line. This file builds the program from the commands'
 * declarations (cli/declare/); each command is an exported async function in
 * cli/commands/ that tests call directly, and one catch below turns a
 * UsageError into one line and exit status 2.
 *
 *   argv ─► commander ─► command(args, options, io) ─► engine / rules / reports
 *
 * Each command's module is imported only when that command runs, so a
 * command that draws no chart never loads the report, bundler or pool
 * modules another one needs, and start-up stays close to a bare node.
 */
import { Command, CommanderError } from 'commander';
import {
  declareBalance,
  declareCompare,
  declareMatrix,
  declareRun,
  declareSweep,
} from './cli/declare/analysis-commands.js';
import {
  declareApp,
  declareBook,
  declareCard,
  declareCheck,
  declareDescribe,
  declareList,
  declareMerge,
  declareNewRule,
  declareShard,
} from './cli/declare/other-commands.js';
import { armHandOff, HandOff } from './cli/hand-off.js';
import { rejectRepeats } from './cli/options.js';
import { type ParsedCommand, parserError } from './cli/parser-errors.js';
import { givenTimeout } from './cli/start-hooks.js';
import { SimulationPool, WorkerError } from './engine/pool.js';
import { Interrupted, UsageError } from './errors.js';
import { escapedRuleFault } from './guard/rule-faults.js';
import { fsFault } from './output/files.js';
import { holdSignals, interruptedStatus, interruption } from './output/interrupt.js';
import { type Io, processIo } from './output/io.js';
import { terminalIo, terminalLine } from './output/terminal.js';
import { isRulePath } from './rule-files/ref.js';
import { packageVersion } from './version.js';

const EXAMPLES = `
Examples:
  muster run infinity --set wipA=13 wipB=15        initiative odds at WIP 13 against 15
  muster sweep reserves --vary chosenRound=0..4 --set command=3 --best all.by.4
                                                   which reserve round with command 3: the answer first
  muster balance rolloff --metric a.wins --target 50% --vary bonusA=-3..3
                                                   the bonus that makes the roll-off fair, exactly
  muster matrix infinity --html wip.html           the printable WIP × WIP chart
  muster compare reserves --variant "7+: target=7" --variant "6+: target=6"
                                                   a rule change, shift by shift, real or noise
  muster card infinity --out wip.html --pdf wip.pdf the one-page WIP × WIP odds card, to print
  muster book                                      every rule and chart, into out/index.html
  muster app --out odds.html                       the calculator: one page, offline, for a phone at the table`;

export function buildProgram(io: Io): Command {
  // The subcommand being parsed, for "see muster run --help" in the parser's errors.
  let currentCommand = 'muster';
  const program = new Command('muster')
    .description('Exact and Monte Carlo odds for tabletop pre-game procedures: initiative, deployment, reserves')
    .version(packageVersion())
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      outputError: (message, write) =>
        write(
          parserError(
            message,
            currentCommand,
            program.commands.map((c) => c.name()),
            parsedCommand(program, currentCommand),
          ),
        ),
    })
    .showSuggestionAfterError(true);

  declareList(program, io);
  declareDescribe(program, io);
  declareRun(program, io);
  declareMatrix(program, io);
  declareSweep(program, io);
  declareBalance(program, io);
  declareCompare(program, io);
  declareCheck(program, io);
  declareNewRule(program, io);
  declareCard(program, io);
  declareBook(program, io);
  declareApp(program, io);
  declareShard(program, io);
  declareMerge(program, io);
  // A command whose <rule> is a rule file moves to the rule thread before it loads anything (see main); one
  // that finds a rule file later (a variant's, a shard's) moves when it asks the loader for it.
  program.hook('preAction', (_program, command) => {
    const takesRule = command.registeredArguments[0]?.name() === 'rule';
    if (ruleThreadArmed && takesRule && isRulePath(String(command.processedArgs[0]))) throw new HandOff('rule thread');
    if (tellTimeout) return givenTimeout(program).then(tellTimeout);
  });
  program.hook('preSubcommand', (_program, sub) => {
    currentCommand = sub.name();
  });
  rejectRepeats(program);
  return program;
}

/** The subcommand being parsed, as parserError's hints need it. */
function parsedCommand(program: Command, name: string): ParsedCommand | undefined {
  const command = program.commands.find((candidate) => candidate.name() === name);
  if (!command) return undefined;
  return {
    args: command.args,
    names: command.registeredArguments.map((argument) => argument.name()),
    options: command.options.map((option) => option.long ?? ''),
  };
}

/** Whether the running command moves to the rule thread when it loads a rule file (main() on the real process). */
let ruleThreadArmed = false;
/** Told the command's --timeout once argv is parsed (main()'s third argument). */
let tellTimeout: ((seconds: number | undefined) => void) | undefined;

/**
 * Runs the CLI on `argv` (without node and script) and returns the exit
 * status. On the real process (the default io), a command that loads a
 * rule file is run again on the rule thread, under a supervisor that can
 * stop the rule's code (cli/supervisor.ts); one given another io (a test,
 * the rule thread itself) runs where it is called. The rule thread passes
 * `parsed`, to tell its supervisor the command's --timeout before the
 * command runs.
 */
export async function main(
  argv: readonly string[],
  rawIo: Io = processIo,
  parsed?: (timeout: number | undefined) => void,
): Promise<number> {
  // User text reaches the terminal only with its control characters shown as escapes.
  const io = terminalIo(rawIo);
  const program = buildProgram(io);
  // Held for the whole command, so a second Ctrl-C while a run winds down cannot kill it before it prints.
  const release = holdSignals();
  const disarm = rawIo === processIo ? armHandOff() : () => {};
  ruleThreadArmed = rawIo === processIo;
  tellTimeout = parsed;
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // A rule file's fault that got past the adapter's checks (what it threw, a trap of its own): one line, 2.
    const escaped = escapedRuleFault(error);
    if (escaped) {
      io.err(`muster: ${terminalLine(escaped.message)}\n`);
      return 2;
    }
    if (error instanceof HandOff) {
      disarm();
      await SimulationPool.dropPrestarted();
      const { superviseCommand } = await import('./cli/supervisor.js');
      const timeout = await givenTimeout(program);
      // A Ctrl-C during the hand-off was caught here; the rule thread hears it first thing.
      return await superviseCommand(argv, { raw: rawIo, io, timeout, signalled: interruption() ?? undefined });
    }
    if (error instanceof CommanderError) {
      // Commander has printed its own one-line message; help and --version are not errors.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof Interrupted) {
      io.err(`muster: PARTIAL: ${terminalLine(error.message)}\n`);
      return interruptedStatus();
    }
    const usage = error instanceof UsageError ? error : fsFault(error);
    if (usage) {
      io.err(`muster: ${terminalLine(usage.message)}\n`);
      return 2;
    }
    if (error instanceof WorkerError) {
      io.err(`muster: ${terminalLine(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    disarm();
    ruleThreadArmed = false;
    tellTimeout = undefined;
    await SimulationPool.dropPrestarted();
    release();
  }
}

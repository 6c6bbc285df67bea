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
import { rejectRepeats } from './cli/options.js';
import { type ParsedCommand, parserError } from './cli/parser-errors.js';
import { givenTimeout } from './cli/start-hooks.js';
import { SimulationPool, WorkerError } from './engine/pool.js';
import { Interrupted, UsageError } from './errors.js';
import { escapedRuleFault } from './guard/rule-faults.js';
import { fsFault } from './output/files.js';
import { holdSignals, interruptedStatus } from './output/interrupt.js';
import { type Io, processIo } from './output/io.js';
import { terminalIo, terminalLine } from './output/terminal.js';
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

/**
 * The program, its commands declared. `parsed`, when given, is told the
 * command's --timeout once argv is parsed, before the command runs (the rule
 * thread tells its supervisor so).
 */
export function buildProgram(io: Io, parsed?: (timeout: number | undefined) => void): Command {
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
  // Where the command runs was decided before argv reached the parser (cli/entry.ts).
  if (parsed) program.hook('preAction', () => givenTimeout(program).then(parsed));
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

/**
 * Runs the CLI on `argv` (without node and script) and returns the exit
 * status, on the thread it is called on: the process's entry
 * (cli/entry.ts) has already decided which thread that is, and a test calls
 * it directly. The rule thread passes `parsed`, to tell its supervisor the
 * command's --timeout before the command runs.
 */
export async function main(
  argv: readonly string[],
  rawIo: Io = processIo,
  parsed?: (timeout: number | undefined) => void,
): Promise<number> {
  // User text reaches the terminal only with its control characters shown as escapes.
  const io = terminalIo(rawIo);
  const program = buildProgram(io, parsed);
  // Held for the whole command, so a second Ctrl-C while a run winds down cannot kill it before it prints.
  const release = holdSignals();
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
    await SimulationPool.dropPrestarted();
    release();
  }
}

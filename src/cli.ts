#!/usr/bin/env node
/**
 * muster's command line. This file only declares commands; each command is
 * an exported async function in cli/commands/ that tests call directly, and
 * one catch below turns a UsageError into one line and exit status 2.
 *
 *   argv ─► commander ─► command(args, options, io) ─► engine / rules / reports
 *
 * Each command's module is imported only when that command runs, so a
 * command that draws no chart never loads the report, bundler or pool
 * modules another one needs, and start-up stays close to a bare node.
 */
import { Command, CommanderError, Option } from 'commander';
import { armHandOff, HandOff } from './cli/hand-off.js';
import { holdSignals, interruptedStatus, interruption } from './cli/interrupt.js';
import { type Io, processIo } from './cli/io.js';
import { collect, rejectRepeats } from './cli/options.js';
import { type ParsedCommand, parserError } from './cli/parser-errors.js';
import { givenTimeout, prestartPool } from './cli/start-hooks.js';
import { SimulationPool, WorkerError } from './engine/pool.js';
import { STREAM_HELP } from './engine/random.js';
import { Interrupted, UsageError } from './errors.js';
import { escapedRuleFault } from './guard/rule-faults.js';
import { fsFault } from './output/files.js';
import { terminalIo, terminalLine } from './output/terminal.js';
import { isRulePath } from './rules/rule-ref.js';
import { packageVersion } from './version.js';

/** --timeout on a command that runs a rule file's code but simulates nothing of its own. */
const RULE_CODE_TIMEOUT = "stop (exit 2, nothing written) if a call of a rule file's code does not return this soon";

function simulationOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--set <name=value...>', 'set a rule parameter (repeatable; see muster describe <rule>)').argParser(
        collect,
      ),
    )
    .option('--trials <n>', 'trials to simulate: 1000000, 1e6, 10M (default 1M)')
    .option('--seed <text>', 'random seed; the same seed gives the same numbers on any thread count (default "muster")')
    .option('--stream <n>', STREAM_HELP)
    .option('--threads <n>', 'worker threads (default: available cores)')
    .option('--confidence <level>', 'confidence level of every interval (default 0.95)')
    .option('--json <file>', 'also write the result as JSON (- for standard output)')
    .option(
      '--timeout <seconds>',
      'fail (nothing written) if no block of trials, or call of a rule file, ends this soon',
    )
    .option('--quiet', 'no progress bar or notes on stderr');
}

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

  program
    .command('list')
    .description('list the rules muster covers')
    .action(async () => (await import('./cli/commands/list.js')).listCommand(io));
  program
    .command('describe')
    .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
    .description("a rule's parameters, their defaults and allowed values, and its metrics")
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .action(async (rule: string, options) =>
      (await import('./cli/commands/describe.js')).describeCommand(rule, io, options),
    );
  simulationOptions(
    program
      .command('run')
      .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
      .description('simulate a rule: every metric with its interval and exact value'),
  )
    .option('--precision <e>', 'instead of --trials: add batches until every probability interval is ± e or narrower')
    .option('--max-trials <n>', 'cap for --precision (default 1e9)')
    .option('--exact', 'print the exact values without simulating')
    .option(
      '--objective <expr>',
      "a rule file with decisions: the metric side a plays for (default the rule's objective; --set objective=… " +
        'alike); reserves --set chosenRound=call: a metric or a weighted sum (default all.by.<rounds>)',
    )
    .addOption(
      new Option(
        '--metric <name>',
        "show this metric (repeatable; globs such as a.* allowed); default the rule's headline metrics",
      ).argParser(collect),
    )
    .option('--all', 'show every metric, not only the headline ones')
    .option('--percentile <list>', "each distribution's percentiles to report, such as 10,90 (the median always)")
    .option('--html <file>', 'also write a self-contained HTML report (charts and every metric)')
    .option('--svg <dir>', 'also write each chart as a standalone SVG into this folder')
    .option('--csv <file>', 'also write the metrics table as CSV (- for standard output)')
    .option('--checkpoint <file>', 'save finished chunks here as the run goes; run the same command again to resume')
    .option('--checkpoint-every <seconds>', 'seconds between checkpoint writes (default 5)')
    .option(
      '--print-diagnostics',
      "print the HTML report's diagnostics (every metric, simulation against exact) too, not only on screen",
    )
    .action(async (rule: string, options) => {
      prestartPool(options, !options.exact);
      await (await import('./cli/commands/run.js')).runCommand(rule, options, io);
    });
  simulationOptions(
    program
      .command('matrix')
      .argument('<rule>', 'rule id or rule file with a matrix (see muster describe)')
      .description("the rule's printable two-way table (exact where possible)"),
  )
    .option('--range <values>', 'axis values, such as 8..16 (rule-specific)')
    .option('--simulate', 'simulate every cell even where an exact solution exists')
    .addOption(
      new Option(
        '--metric <name>',
        "tabulate this metric (repeatable; globs such as a.* allowed); default the matrix's own",
      ).argParser(collect),
    )
    .option(
      '--against <value>',
      'one opponent (the column value, short labels such as S123 allowed): every row ranked against it, with the ' +
        'trade-off',
    )
    .option('--html <file>', 'also write the tables as printable heatmaps, the value in every cell')
    .option(
      '--equilibrium',
      "solve the table as a game both sides play at once (rows a's options, columns b's): each side's optimal " +
        'mix, exactly, and the value',
    )
    .option(
      '--objective <expr>',
      'with --equilibrium, what the rows play to raise and the columns to lower: a metric or a weighted sum such as ' +
        '"a.initiative + 0.5*a.aoc" (default the matrix\'s first metric)',
    )
    .action(async (rule: string, options) => {
      await (await import('./cli/commands/matrix.js')).matrixCommand(rule, options, io);
    });
  simulationOptions(
    program
      .command('sweep')
      .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
      .description(
        'every combination of the varied parameters: a table, and lines (one parameter) or heatmaps (two or three) ' +
          'in --html',
      )
      .addHelpText(
        'after',
        '\n--vary forms: name=a..b, name=a..b:step (numbers), name=v1,v2,… (any type); separate values with ; when ' +
          'they contain commas\n(e.g. --vary "a=standard:1,2,3;forward:1"), or give a JSON array, one value alone ' +
          'included (--vary \'warbands=["152:9,148:11"]\').\nCombinations the rule rejects (such as chosenRound ' +
          'above rounds) are skipped. At most 1000 combinations. Every point uses the same --seed.\nA parameter whose ' +
          'default depends on a varied one is shown per point, beside the varied ones.',
      ),
  )
    .addOption(
      new Option(
        '--vary <name=values>',
        'vary a parameter (repeatable): name=a..b[:step], name=v1,v2, name=v1;v2 (values with commas) or name=["v1","v2"]',
      ).argParser(collect),
    )
    .addOption(
      new Option(
        '--metric <name>',
        'metric to tabulate and chart (repeatable; globs such as a.* allowed; default the headline metrics)',
      ).argParser(collect),
    )
    .option('--all', 'tabulate every metric')
    .option(
      '--best <metric[:min]>',
      'mark the point with the highest value of the metric (:min for the lowest) and say whether it beats the ' +
        'runner-up beyond noise',
    )
    .option('--exact', 'solve every point exactly instead of simulating')
    .option('--html <file>', 'also write an HTML report with lines or heatmaps')
    .option('--csv <file>', 'also write every metric at every point as CSV (- for standard output)')
    .option(
      '--shard <i/n|auto>',
      "run only shard i of n of the sweep's chunks, for muster merge (auto: from the scheduler’s array index; see " +
        'docs/cluster.md)',
    )
    .option(
      '--shards <n>',
      'the shard count where the scheduler does not export it (Kubernetes, Nomad, GNU parallel; AWS Batch and LSF ' +
        'optionally)',
    )
    .option('--out <file>', "with --shard: where to write this shard's tallies ({index} becomes the shard index)")
    .option('--checkpoint <file>', 'save finished chunks here as the sweep goes; run the same command again to resume')
    .option('--checkpoint-every <seconds>', 'seconds between checkpoint writes (default 5)')
    .action(async (rule: string, options) => {
      prestartPool(options, !options.exact);
      await (await import('./cli/commands/sweep.js')).sweepOrShardCommand(rule, options, io);
    });
  simulationOptions(
    program
      .command('balance')
      .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
      .description(
        'the settings of the varied parameters that bring a metric nearest a target, exact where the rule allows: ' +
          'the answer in words, the map, one step of each parameter, the cliffs',
      )
      .addHelpText(
        'after',
        '\n--target forms: 50% (or 50pp), 1/2 or 0.5 for a probability; 2.5 or 5/2 for a mean. --keep "METRIC OP ' +
          'VALUE"\nwith OP one of >=, <=, >, <, =, != keeps only the settings that meet it (repeatable). --vary ' +
          'takes the forms\nmuster sweep takes. Exact wherever the rule has exact values at every setting; any ' +
          'simulation flag\n(--trials, --seed, …) or --simulate simulates.',
      ),
  )
    .addOption(
      new Option('--vary <name=values>', 'vary a parameter (repeatable): name=a..b[:step] or name=v1,v2').argParser(
        collect,
      ),
    )
    .option('--metric <name>', 'the metric to bring near the target (one name)')
    .option('--target <value>', 'the value to come nearest to: 50%, 1/2, 0.5 (probabilities) or 2.5 (means)')
    .addOption(
      new Option(
        '--keep <"METRIC OP VALUE">',
        'only settings that meet this, e.g. "all.by.4>=80%" (repeatable)',
      ).argParser(collect),
    )
    .option('--within <distance>', 'also list every setting this near the target: 2pp, 1/50 (probabilities) or 0.5')
    .option(
      '--cliff <distance>',
      'list neighbouring settings whose values differ by more than this (default 10pp; 1 for a mean)',
    )
    .option('--exact', 'solve every setting exactly (the default where the rule has exact values)')
    .option('--simulate', 'simulate even where the rule has exact values')
    .option('--html <file>', 'also write the balance map: a heat map (two parameters) or a line (one), printable')
    .option(
      '--shard <i/n|auto>',
      "run only shard i of n of the balance's chunks (simulated), for muster merge (auto: from the scheduler’s " +
        'array index; see docs/cluster.md)',
    )
    .option('--shards <n>', 'the shard count where the scheduler does not export it (as muster sweep --shards)')
    .option('--out <file>', "with --shard: where to write this shard's tallies ({index} becomes the shard index)")
    .option(
      '--checkpoint <file>',
      'save finished chunks here as the balance is simulated; run the same command again to resume',
    )
    .option('--checkpoint-every <seconds>', 'seconds between checkpoint writes (default 5)')
    .action(async (rule: string, options) => {
      await (await import('./cli/commands/balance.js')).balanceOrShardCommand(rule, options, io);
    });
  simulationOptions(
    program
      .command('compare')
      .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
      .description(
        'named variants side by side: every metric, the differences from the first variant, and which are significant',
      )
      .addHelpText(
        'after',
        [
          '',
          'Variant syntax: --variant "label: name=value,name=value". The label is the text before the first colon; ' +
            'leave it',
          'out (start with name=value) to use the settings as the label. Assignments are split at a comma only ' +
            'where the next',
          'text is "<known parameter>=", so values may contain commas: --variant "S124: a=standard:1,2,4,b=forward:2".',
          'A ; also separates assignments. --set applies to every variant; a variant overrides it.',
          '',
          "Significance: a two-sample z-test per metric (each side's own variance), Holm-adjusted over every " +
            'metric of every',
          'variant against the first, at level 1 − confidence. Every variant runs on the same --seed: where a ' +
            'change leaves the',
          'dice as they fell the variants share them and the independent-samples test is conservative; where it ' +
            'changes how',
          'many dice are thrown the streams soon part. --seed-per-variant gives each variant its own stream, for exact',
          'independence (use it for a change that reverses whom a die favours, such as swapping sides).',
        ].join('\n'),
      ),
  )
    .addOption(
      new Option('--variant <"label: name=value,…">', 'a named variant (repeat; the first is the baseline)').argParser(
        collect,
      ),
    )
    .option('--seed-per-variant', 'give each variant its own random stream (derived from --seed and its position)')
    .option('--simulate', 'simulate even where every variant has exact values (the default then is exact differences)')
    .addOption(
      new Option(
        '--metric <name>',
        'show this metric (repeatable; globs such as a.* allowed); default the headline metrics',
      ).argParser(collect),
    )
    .option('--all', 'show every metric')
    .option('--exact', 'compare exact values only, without simulating (the default where the rule has exact values)')
    .option('--html <file>', 'also write an HTML report')
    .option('--csv <file>', 'also write the comparison as CSV (- for standard output)')
    .option(
      '--shard <i/n|auto>',
      "run only shard i of n of the variants' chunks, for muster merge (auto: from the scheduler’s array index; " +
        'see docs/cluster.md)',
    )
    .option(
      '--shards <n>',
      'the shard count where the scheduler does not export it (Kubernetes, Nomad, GNU parallel; AWS Batch and LSF ' +
        'optionally)',
    )
    .option('--out <file>', "with --shard: where to write this shard's tallies ({index} becomes the shard index)")
    .action(async (rule: string, options) => {
      await (await import('./cli/commands/compare.js')).compareOrShardCommand(rule, options, io);
    });
  program
    .command('check')
    .argument('<file>', 'a rule file')
    .description(
      "compare a rule file's exact(), the enumeration of its dice and its simulation at a spread of points; exit 1 " +
        'on any disagreement, 3 when nothing could be checked',
    )
    .addOption(new Option('--set <name=value...>', 'hold a parameter at a value').argParser(collect))
    .option('--trials <n>', 'trials a point (default 131072)')
    .option('--seed <text>', 'seed (default muster-check)')
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .action(
      async (file: string, options) =>
        void (await (await import('./cli/commands/check.js')).checkCommand(file, options, io)),
    );
  program
    .command('new-rule')
    .argument('<name>', "the rule's name (letters, digits and '-'), optionally in a folder: rules/my-rule")
    .description('write NAME.mjs, a commented rule file that runs as written, and NAME.test.mjs, its vitest test')
    .action(async (name: string) => {
      await (await import('./cli/commands/new-rule.js')).newRuleCommand(name, io);
    });
  program
    .command('card')
    .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs)')
    .description("the rule's one-page odds card: its headline chart or table, sized to A4 or Letter, as HTML (and PDF)")
    .addOption(
      new Option('--set <name=value...>', 'set a rule parameter (repeatable; see muster describe <rule>)').argParser(
        collect,
      ),
    )
    .option(
      '--range <values>',
      "the table's axis values: WIP 8..16 (infinity), fighters 4..12 (noctvale), strategies (deployment), command " +
        'levels 2..4 (reserves)',
    )
    .option(
      '--against <strategy>',
      'deployment: one opponent deployment (such as standard:1,2,3), for a ranked list of answers',
    )
    .option(
      '--equilibrium',
      "add the rule's matrix solved as a game both sides play at once: each side's best mix (see matrix --equilibrium)",
    )
    .option('--objective <expr>', "with --equilibrium, what the rows play to raise (default the matrix's first metric)")
    .option('--out <file>', 'the HTML card to write (required)')
    .option('--pdf <file>', 'also print it to PDF through Chromium (/usr/bin/chromium, or MUSTER_CHROMIUM)')
    .option('--paper <size>', 'a4 or letter (default a4)')
    .option('--trials <n>', 'trials per point for a rule with no exact solution (default 100k)')
    .option('--seed <text>', 'random seed for a rule with no exact solution (default "muster")')
    .option('--stream <n>', STREAM_HELP)
    .option('--threads <n>', 'worker threads (default: available cores)')
    .option('--confidence <level>', 'confidence level of every interval (default 0.95)')
    .option(
      '--timeout <seconds>',
      'fail (nothing written) if no block of trials, or call of a rule file, ends this soon',
    )
    .option('--quiet', 'no notes on stderr')
    .action(async (rule: string, options) => {
      await (await import('./cli/commands/card.js')).cardCommand(rule, options, io);
    });
  program
    .command('book')
    .description('the report book: every rule at its defaults and its one-page odds card, as HTML (out/index.html)')
    .option('--out <dir>', 'folder to write the book into, made if missing (default out)')
    .option('--trials <n>', 'trials for each rule at its defaults (default 1M)')
    .option('--printable-trials <n>', 'trials per point of a card with no exact solution (default 100k)')
    .option('--seed <text>', 'random seed (default "muster")')
    .option('--stream <n>', STREAM_HELP)
    .option('--threads <n>', 'worker threads (default: available cores)')
    .option('--confidence <level>', 'confidence level of every interval (default 0.95)')
    .option('--timeout <seconds>', 'fail (exit 1, nothing written) if no block of trials finishes for this long')
    .option('--quiet', 'no progress on stderr')
    .action(async (options) => {
      prestartPool(options, true);
      await (await import('./cli/commands/book.js')).bookCommand(options, io);
    });
  program
    .command('app')
    .description('the odds calculator: one self-contained HTML page, exact answers as you type, works offline')
    .option('--out <file>', 'the page to write (default app.html)')
    .addOption(new Option('--rule <file>', 'also bundle this rule file into the page (repeatable)').argParser(collect))
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .action(async (options) => {
      await (await import('./cli/commands/app.js')).appCommand(options, io);
    });
  simulationOptions(
    program
      .command('shard')
      .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
      .description(
        'run one block of a run on this machine, for muster merge (the same seed and trials on every machine)',
      ),
  )
    .option(
      '--shard <i/n|auto>',
      'which block: i of n, counting from 0 (0/4 … 3/4); auto (or left out in an array job): from the scheduler’s ' +
        'array index (Slurm, Kubernetes, AWS Batch, Cloud Run, LSF, Nomad, GNU parallel)',
    )
    .option(
      '--shards <n>',
      'the shard count where the scheduler does not export it (Kubernetes, Nomad, GNU parallel; AWS Batch and LSF ' +
        'optionally)',
    )
    .option('--out <file>', "where to write this block's tally ({index} becomes the shard index)")
    .option(
      '--checkpoint <file>',
      'save finished chunks here as the shard goes ({index} becomes the shard index); run the same command again ' +
        'to resume',
    )
    .option('--checkpoint-every <seconds>', 'seconds between checkpoint writes (default 5)')
    .action(async (rule: string, options) => {
      await (await import('./cli/commands/shard.js')).shardCommand(rule, options, io);
    });
  program
    .command('merge')
    .argument('<files...>', 'the tally files of every shard of one run (muster shard), sweep or comparison (--shard)')
    .description('add the shards of a run, a sweep or a comparison: the same result, bit for bit, as on one machine')
    .addOption(
      new Option(
        '--rule <file>',
        'shards of a rule file: the file they were run with, checked by its sha256 before it is imported ' +
          '(repeatable: one per rule file)',
      ).argParser(collect),
    )
    .option('--confidence <level>', "confidence level of every interval (default 0.95; a sweep's own)")
    .option('--json <file>', 'also write the result as JSON (- for standard output)')
    .option(
      '--verify <k>',
      're-run k shards (of a sweep or comparison: k pieces) chosen at random and refuse the merge if any differs ' +
        'from its file',
    )
    .option('--threads <n>', 'with --verify: worker threads (default: available cores)')
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .addOption(
      new Option(
        '--metric <name>',
        'sweeps: metric to tabulate and chart (repeatable; default the headline metrics)',
      ).argParser(collect),
    )
    .option('--html <file>', 'sweeps and comparisons: also write the HTML report')
    .option('--csv <file>', 'sweeps and comparisons: also write the CSV (- for standard output)')
    .option('--quiet', 'no notes on stderr')
    .action(async (files: string[], options) => {
      await (await import('./cli/commands/shard.js')).mergeAnyCommand(files, options, io);
    });
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

/**
 * The analysis commands' declarations (run, matrix, sweep, balance, compare): their arguments, options and help,
 * each action importing its command's module only when it runs (src/cli/commands/).
 */
import { type Command, Option } from 'commander';
import type { Io } from '../../output/io.js';
import { collect } from '../options.js';
import { prestartPool } from '../start-hooks.js';
import { simulationOptions } from './shared-options.js';

/** `muster run`. */
export function declareRun(program: Command, io: Io): void {
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
      await (await import('../commands/run.js')).runCommand(rule, options, io);
    });
}

/** `muster matrix`. */
export function declareMatrix(program: Command, io: Io): void {
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
      await (await import('../commands/matrix.js')).matrixCommand(rule, options, io);
    });
}

/** `muster sweep`. */
export function declareSweep(program: Command, io: Io): void {
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
      await (await import('../commands/sweep.js')).sweepOrShardCommand(rule, options, io);
    });
}

/** `muster balance`. */
export function declareBalance(program: Command, io: Io): void {
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
      await (await import('../commands/balance.js')).balanceOrShardCommand(rule, options, io);
    });
}

/** `muster compare`. */
export function declareCompare(program: Command, io: Io): void {
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
    .option(
      '--objective <expr>',
      'with a reserves variant chosenRound=call: what best play plays for, a metric or a weighted sum (default ' +
        'all.by.<rounds>)',
    )
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
      await (await import('../commands/compare.js')).compareOrShardCommand(rule, options, io);
    });
}

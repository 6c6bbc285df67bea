/**
 * The other commands' declarations (list, describe, check, new-rule, card, book, app, shard, merge): their
 * arguments, options and help, each action importing its command's module only when it runs (src/cli/commands/).
 */
import { type Command, Option } from 'commander';
import { STREAM_HELP } from '../../engine/random.js';
import type { Io } from '../../output/io.js';
import { collect } from '../options.js';
import { prestartPool } from '../start-hooks.js';
import { RULE_CODE_TIMEOUT, simulationOptions } from './shared-options.js';

/** `muster list`. */
export function declareList(program: Command, io: Io): void {
  program
    .command('list')
    .description('list the rules muster covers')
    .action(async () => (await import('../commands/list.js')).listCommand(io));
}

/** `muster describe <rule>`. */
export function declareDescribe(program: Command, io: Io): void {
  program
    .command('describe')
    .argument('<rule>', 'rule id (see muster list) or a rule file (./my-rule.mjs, see muster new-rule)')
    .description("a rule's parameters, their defaults and allowed values, and its metrics")
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .action(async (rule: string, options) =>
      (await import('../commands/describe.js')).describeCommand(rule, io, options),
    );
}

/** `muster check`. */
export function declareCheck(program: Command, io: Io): void {
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
        void (await (await import('../commands/check.js')).checkCommand(file, options, io)),
    );
}

/** `muster new-rule`. */
export function declareNewRule(program: Command, io: Io): void {
  program
    .command('new-rule')
    .argument('<name>', "the rule's name (letters, digits and '-'), optionally in a folder: rules/my-rule")
    .description('write NAME.mjs, a commented rule file that runs as written, and NAME.test.mjs, its vitest test')
    .action(async (name: string) => {
      await (await import('../commands/new-rule.js')).newRuleCommand(name, io);
    });
}

/** `muster card`. */
export function declareCard(program: Command, io: Io): void {
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
      await (await import('../commands/card.js')).cardCommand(rule, options, io);
    });
}

/** `muster book`. */
export function declareBook(program: Command, io: Io): void {
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
      await (await import('../commands/book.js')).bookCommand(options, io);
    });
}

/** `muster app`. */
export function declareApp(program: Command, io: Io): void {
  program
    .command('app')
    .description('the odds calculator: one self-contained HTML page, exact answers as you type, works offline')
    .option('--out <file>', 'the page to write (default app.html)')
    .addOption(new Option('--rule <file>', 'also bundle this rule file into the page (repeatable)').argParser(collect))
    .option('--timeout <seconds>', RULE_CODE_TIMEOUT)
    .action(async (options) => {
      await (await import('../commands/app.js')).appCommand(options, io);
    });
}

/** `muster shard`. */
export function declareShard(program: Command, io: Io): void {
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
      await (await import('../commands/shard.js')).shardCommand(rule, options, io);
    });
}

/** `muster merge`. */
export function declareMerge(program: Command, io: Io): void {
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
      await (await import('../commands/shard.js')).mergeAnyCommand(files, options, io);
    });
}

/**
 * The hints muster prints that name a flag, a command or a way to get what was refused ("leave out --exact",
 * "add --simulate", "--json, or the whole matrix with --html", "muster check FILE …"), provoked through the real
 * CLI and then followed: each command line the hint suggests is run with the same parser, and must not be refused
 * as a usage error about its options (the point of a hint is that doing what it says works). Where a hint offers
 * more than one way, each is followed. The families covered: enumeration refused or past a budget (per command and
 * per form), simulation options refused beside exact ones, shards of sweeps and comparisons, muster shard and
 * muster merge (a shard's --json, merge's --html for a run, shards of two streams, --rule for a built-in rule),
 * every scheduler's shard place (none, two at once, Slurm, LSF, GNU parallel, an exported count, a count it does
 * not export, {index} outside a shard), checkpoints, outputs (a name of another format), metrics, the folded line,
 * cards (--out, --trials, --objective), the far-from-exact warning, describe, new-rule's next steps, a full
 * standard output, and the parser's "did you mean", missing value, mistyped command and missing rule. The later
 * groups check that the lines offering no flag (a rule's own remedy, a full device) name none, and that compare and
 * card solve what --exact solves. The last test keeps the class covered: it counts, per file of src/, the lines
 * that offer a way and name a flag or a command, and fails when one appears that its list does not hold.
 *
 * What is followed is written out per case beside the words of the hint it follows (`says`), so a hint reworded
 * into one that names another flag fails here until its follow-up is written too.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('hints');
const file = (name: string) => join(folder, name);

/**
 * Rule files: `many` sums n dice of `sides` faces (sides^n paths: 6^7 = 279,936 is past the quick 50,000 and
 * within the full 1,000,000; 6^9 is past both; its matrix adds `more` dice, 8 to 10 in all, past both); `uniform` reads dice.random(), which no budget enumerates; `grid`
 * declares a matrix over n, past the full budget at every cell; `wrong` has an exact() that is wrong (1/5 for a
 * six, hand-known to be 1/6), so run warns.
 */
writeFileSync(
  file('many.mjs'),
  `export default { id: 'many', title: 'many dice', metrics: [{ name: 'x', probability: true, doc: 'above the mean' }],
  params: [{ name: 'n', type: 'integer', default: 7, min: 1, max: 12, doc: 'dice' },
    { name: 'sides', type: 'integer', default: 6, min: 2, max: 6, doc: 'faces' },
    { name: 'more', type: 'integer', default: 0, min: 0, max: 12, doc: 'dice added' }],
  matrix: { row: 'n', col: 'more', metrics: ['x'], values: [4, 5] },
  trial(dice, p, out) {
    const n = p.n + p.more;
    let s = 0;
    for (let i = 0; i < n; i++) s += dice.d(p.sides);
    out.x = s > ((p.sides + 1) / 2) * n;
  } };
`,
);
writeFileSync(
  file('uniform.mjs'),
  `export default { id: 'uniform', title: 'uniform', metrics: [{ name: 'x', probability: true }],
  params: [{ name: 'edge', type: 'number', default: 0.5, min: 0, max: 1, doc: 'edge' }],
  trial(dice, p, out) { out.x = dice.random() < p.edge; } };
`,
);
writeFileSync(
  file('wrong.mjs'),
  `export default { id: 'wrong', title: 'a six', metrics: [{ name: 'six', probability: true }],
  trial(dice, p, out) { out.six = dice.d(6) === 6; }, exact: () => ({ six: '1/5' }) };
`,
);

/** A file that is JSON but no checkpoint of muster's. */
writeFileSync(file('ck-bad.json'), '{"format":"x"}');

/** A quick simulation, added to a follow-up that simulates (the hint's point is the flag, not the trial count). */
const QUICK = ['--trials', '20000', '--threads', '1'];
/** Enough trials for four shards to have a chunk each (a shard with none is refused). */
const SHARDED = ['--trials', '300000', '--threads', '1'];

interface Case {
  /** What provokes the hint. */
  argv: string[];
  /** Where it is printed (stderr unless told) and what it must say. */
  hint: RegExp;
  stream?: 'stdout' | 'stderr';
  /** A paragraph wrapped to the terminal's width: read with its lines joined. */
  wrapped?: boolean;
  /** Command lines run first, to write the files the hint is about. */
  setup?: string[][];
  /** A scheduler's environment the hint is provoked in (and each way followed, unless it says its own). */
  env?: Record<string, string>;
  /** Each way the hint offers: the words that offer it, and the command line that takes it. */
  follow: Array<{ says: string; argv: string[]; status?: number; env?: Record<string, string> }>;
}

/** Runs the CLI with `env` added to the process's environment, then puts the environment back. */
async function cliIn(env: Record<string, string> | undefined, argv: string[]) {
  if (!env) return cli(...argv);
  const saved = new Map(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await cli(...argv);
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** A usage error about the command line itself: an option, an argument, or a combination refused. */
const USAGE = /^muster: (option|unexpected argument|--[a-z-]+:|[a-z-]+: (only|not available|cannot))/m;

async function provokeAndFollow({ argv, hint, stream = 'stderr', wrapped, setup, env, follow }: Case): Promise<void> {
  for (const line of setup ?? []) expect((await cli(...line)).status, line.join(' ')).toBe(0);
  const provoked = await cliIn(env, argv);
  const printed = wrapped ? provoked[stream].replaceAll('\n', ' ') : provoked[stream];
  expect(printed, `${argv.join(' ')}\n${provoked.stderr}`).toMatch(hint);
  for (const way of follow) {
    expect(printed, `the hint offers "${way.says}"`).toContain(way.says);
    const followed = await cliIn(way.env ?? env, way.argv);
    expect(followed.stderr, `${way.argv.join(' ')} (following "${way.says}")`).not.toMatch(USAGE);
    expect(followed.status, `${way.argv.join(' ')}\n${followed.stderr}`).toBe(way.status ?? 0);
  }
}

const cases: Record<string, Case> = {
  // Enumeration refused where exact values were asked for: each command names its own way to simulate.
  'run --exact past the budget: leave out --exact': {
    argv: ['run', file('many.mjs'), '--exact', '--set', 'n=9'],
    hint: /enumeration needs more than 1,000,000 paths; allowed: the step form.*, or simulation \(leave out --exact\)$/m,
    follow: [{ says: 'leave out --exact', argv: ['run', file('many.mjs'), '--set', 'n=9', ...QUICK] }],
  },
  'sweep --exact past the budget: leave out --exact': {
    argv: ['sweep', file('many.mjs'), '--vary', 'n=8..9', '--exact'],
    hint: /, or simulation \(leave out --exact\)$/m,
    follow: [{ says: 'leave out --exact', argv: ['sweep', file('many.mjs'), '--vary', 'n=8..9', ...QUICK] }],
  },
  'compare --exact past the budget: leave out --exact': {
    argv: ['compare', file('many.mjs'), '--variant', 'a: n=9', '--variant', 'b: n=6', '--exact'],
    hint: /, or simulation \(leave out --exact\)$/m,
    follow: [
      {
        says: 'leave out --exact',
        argv: ['compare', file('many.mjs'), '--variant', 'a: n=9', '--variant', 'b: n=6', ...QUICK],
      },
    ],
  },
  'matrix, exact by default, past the budget: add --simulate': {
    argv: ['matrix', file('many.mjs')],
    hint: /, or simulation \(add --simulate\)$/m,
    follow: [{ says: 'add --simulate', argv: ['matrix', file('many.mjs'), '--simulate', ...QUICK] }],
  },
  'a run past the quick budget beside its simulation: --exact in place of the simulation options': {
    // 6 + 1 dice: 6^7 paths, past the quick budget and within the full one. Parameters no other case solves: the
    // enumeration keeps a point solved at the full budget, and the matrix case's base point (n=7) is one.
    argv: ['run', file('many.mjs'), '--set', 'n=6', 'more=1', ...QUICK],
    hint: /^muster: note: no exact values beside the simulation: .*--exact in place of the simulation's options/,
    follow: [{ says: '--exact in place', argv: ['run', file('many.mjs'), '--set', 'n=6', 'more=1', '--exact'] }],
  },
  'a simulated --best within noise, past the quick budget: more trials, or --exact': {
    argv: ['sweep', file('many.mjs'), '--vary', 'sides=5,6', '--best', 'x', '--trials', '100', '--threads', '1'],
    stream: 'stdout',
    wrapped: true,
    hint: /within noise: the intervals overlap, so simulate more trials \(--trials N\) or try --exact in place/,
    follow: [
      {
        says: '(--trials N)',
        argv: ['sweep', file('many.mjs'), '--vary', 'sides=5,6', '--best', 'x', '--trials', '400', '--threads', '1'],
      },
      { says: 'try --exact', argv: ['sweep', file('many.mjs'), '--vary', 'sides=5,6', '--best', 'x', '--exact'] },
    ],
  },
  'a simulated --best within noise, never enumerable: more trials only': {
    argv: ['sweep', file('uniform.mjs'), '--vary', 'edge=0.5,0.51', '--best', 'x', '--trials', '100', '--threads', '1'],
    stream: 'stdout',
    wrapped: true,
    hint: /within noise: the intervals overlap, so simulate more trials \(--trials N\)\)\./,
    follow: [
      {
        says: '(--trials N)',
        argv: ['sweep', file('uniform.mjs'), '--vary', 'edge=0.5,0.51', '--best', 'x', '--trials', '400'],
      },
    ],
  },
  'an exact sweep split in shards: leave out --shard and --out, or leave out --exact': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--shard', '0/2', '--out', file('s.json')],
    hint: /allowed: leave out --shard and --out, or simulate \(leave out --exact\)$/m,
    follow: [
      { says: 'leave out --shard and --out', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] },
      {
        says: 'leave out --exact',
        argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--shard', '0/2', '--out', file('s.json'), ...QUICK],
      },
    ],
  },
  'an exact comparison split in shards: --simulate': {
    argv: [
      'compare',
      'rolloff',
      '--variant',
      'a: bonusA=0',
      '--variant',
      'b: bonusA=1',
      '--shard',
      '0/2',
      '--out',
      file('c.json'),
    ],
    hint: /allowed: leave out --shard and --out, or simulate \(--simulate, without --exact\)$/m,
    follow: [
      {
        says: 'leave out --shard and --out',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1'],
      },
      {
        says: '--simulate, without --exact',
        argv: [
          'compare',
          'rolloff',
          '--variant',
          'a: bonusA=0',
          '--variant',
          'b: bonusA=1',
          '--simulate',
          '--shard',
          '0/2',
          '--out',
          file('c.json'),
          ...QUICK,
        ],
      },
    ],
  },
  // Options refused in a combination: each alternative named is taken.
  'run --exact with a simulation option': {
    argv: ['run', 'rolloff', '--exact', '--trials', '1000'],
    hint: /^muster: --exact: cannot be combined with --trials; allowed: --exact alone, or a simulation$/m,
    follow: [
      { says: '--exact alone', argv: ['run', 'rolloff', '--exact'] },
      { says: 'or a simulation', argv: ['run', 'rolloff', '--trials', '1000', '--threads', '1'] },
    ],
  },
  'sweep --exact with a simulation option': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--trials', '1000'],
    hint: /allowed: --exact alone, or a simulation$/m,
    follow: [
      { says: '--exact alone', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] },
      { says: 'or a simulation', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--trials', '1000'] },
    ],
  },
  'compare --exact with a simulation option, and with --simulate': {
    argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--exact', '--simulate'],
    hint: /^muster: --exact: cannot be combined with --simulate; allowed: one of the two$/m,
    follow: [
      {
        says: 'one of the two',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--exact'],
      },
      {
        says: 'one of the two',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--simulate', ...QUICK],
      },
    ],
  },
  'run --precision with --trials': {
    argv: ['run', 'rolloff', '--precision', '0.01', '--trials', '1000'],
    hint: /allowed: one of the two \(--max-trials caps --precision\)$/m,
    follow: [
      { says: 'one of the two', argv: ['run', 'rolloff', '--precision', '0.01'] },
      { says: 'one of the two', argv: ['run', 'rolloff', '--trials', '1000'] },
      {
        says: '--max-trials caps --precision',
        argv: ['run', 'rolloff', '--precision', '0.01', '--max-trials', '100000'],
      },
    ],
  },
  'run --max-trials without --precision': {
    argv: ['run', 'rolloff', '--max-trials', '1000'],
    hint: /allowed: --precision E --max-trials N$/m,
    follow: [
      {
        says: '--precision E --max-trials N',
        argv: ['run', 'rolloff', '--precision', '0.01', '--max-trials', '100000'],
      },
    ],
  },
  'run --checkpoint-every without --checkpoint': {
    argv: ['run', 'rolloff', '--checkpoint-every', '5'],
    hint: /allowed: --checkpoint FILE --checkpoint-every SECONDS$/m,
    follow: [
      {
        says: '--checkpoint FILE --checkpoint-every SECONDS',
        argv: ['run', 'rolloff', '--checkpoint', file('run.ckpt'), '--checkpoint-every', '5', ...QUICK],
      },
    ],
  },
  'an exact sweep with --checkpoint': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--checkpoint', file('x.ckpt')],
    hint: /allowed: leave out --checkpoint$/m,
    follow: [{ says: 'leave out --checkpoint', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] }],
  },
  'compare and sweep --out without --shard': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--out', file('o.json')],
    hint: /allowed: --json, --csv or --html for a whole sweep$/m,
    follow: [
      { says: '--json', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--json', file('o.json')] },
    ],
  },
  'compare --out without --shard': {
    argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--out', file('o.json')],
    hint: /allowed: --json, --csv or --html for a whole comparison$/m,
    follow: [
      {
        says: '--json',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--json', file('o.json')],
      },
    ],
  },
  'a sweep shard with --json: --json on muster merge': {
    argv: [
      'sweep',
      'rolloff',
      '--vary',
      'bonusA=0..1',
      '--shard',
      '0/1',
      '--out',
      file('m.json'),
      '--json',
      file('j.json'),
    ],
    hint: /allowed: --json on muster merge$/m,
    follow: [
      {
        says: '--json',
        argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--shard', '0/1', '--out', file('m.json'), ...QUICK],
      },
      { says: '--json on muster merge', argv: ['merge', file('m.json'), '--json', file('j.json')] },
    ],
  },
  'a parameter both set and varied': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--set', 'bonusA=1'],
    hint: /allowed: either --set or --vary for a parameter$/m,
    follow: [{ says: '--vary', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] }],
  },
  'matrix --html with --against': {
    argv: ['matrix', 'deployment', '--against', 'S123', '--html', file('m.html')],
    hint: /allowed: --json, or the whole matrix with --html$/m,
    follow: [
      { says: '--json', argv: ['matrix', 'deployment', '--against', 'S123', '--json', file('m.json')] },
      { says: 'the whole matrix with --html', argv: ['matrix', 'deployment', '--html', file('m.html')] },
    ],
  },
  'an exact matrix with --trials': {
    argv: ['matrix', 'infinity', '--trials', '1000'],
    hint: /allowed: add --simulate to simulate every cell, or leave it out$/m,
    follow: [
      { says: 'add --simulate', argv: ['matrix', 'infinity', '--simulate', '--trials', '1000', '--range', '8..9'] },
      { says: 'or leave it out', argv: ['matrix', 'infinity'] },
    ],
  },
  'an exact card with --trials': {
    argv: ['card', 'infinity', '--trials', '1000', '--out', file('card.html')],
    hint: /allowed: leave it out$/m,
    follow: [{ says: 'leave it out', argv: ['card', 'infinity', '--out', file('card.html')] }],
  },
  'a card without --out': {
    argv: ['card', 'infinity'],
    hint: /allowed: the HTML file to write, such as --out card.html$/m,
    follow: [{ says: '--out card.html', argv: ['card', 'infinity', '--out', file('card.html')] }],
  },
  '--all with --metric': {
    argv: ['run', 'rolloff', '--exact', '--all', '--metric', 'a.wins'],
    hint: /allowed: one of the two$/m,
    follow: [
      { says: 'one of the two', argv: ['run', 'rolloff', '--exact', '--all'] },
      { says: 'one of the two', argv: ['run', 'rolloff', '--exact', '--metric', 'a.wins'] },
    ],
  },
  'standard output for a page': {
    argv: ['run', 'rolloff', '--exact', '--html', '-'],
    hint: /\(standard output is for --json and --csv\)$/m,
    follow: [
      { says: '--json', argv: ['run', 'rolloff', '--exact', '--json', '-'] },
      { says: '--csv', argv: ['run', 'rolloff', '--exact', '--csv', '-'] },
    ],
  },
  '--shards outside a scheduler': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--shards', '2', '--out', file('q.json')],
    hint: /allowed: --shard auto inside a scheduler's array job, or --shard i\/n in its place$/m,
    follow: [
      {
        says: '--shard i/n in its place',
        argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--shard', '0/2', '--out', file('q.json'), ...QUICK],
      },
    ],
  },
  // Hints printed beside a result: every flag they name is taken by the command that printed them.
  'the folded metrics line, in run, sweep and compare': {
    argv: ['run', 'reserves', '--exact'],
    stream: 'stdout',
    hint: /^\(headline metrics; \d+ more with --all or --metric NAME; --json has all\)$/m,
    follow: [
      { says: '--all', argv: ['run', 'reserves', '--exact', '--all'] },
      {
        says: '--metric NAME',
        argv: ['sweep', 'reserves', '--vary', 'rounds=4..5', '--exact', '--metric', 'lost.mean'],
      },
      { says: '--all', argv: ['compare', 'reserves', '--variant', 'a: rounds=4', '--variant', 'b: rounds=5', '--all'] },
      {
        says: '--json has all',
        argv: ['compare', 'reserves', '--variant', 'a: rounds=4', '--variant', 'b: rounds=5', '--json', '-'],
      },
    ],
  },
  "an exact comparison's header: --simulate to simulate": {
    argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1'],
    stream: 'stdout',
    hint: /^exact values \(no simulation; --simulate to simulate\)$/m,
    follow: [
      {
        says: '--simulate to simulate',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--simulate', ...QUICK],
      },
    ],
  },
  "run's warning far from exact(): muster check FILE": {
    argv: ['run', file('wrong.mjs'), ...QUICK],
    hint: /muster check \S*wrong\.mjs compares them point by point$/m,
    // check exits 1 on the disagreement it finds: its answer, not a refusal of its command line.
    follow: [{ says: 'muster check', argv: ['check', file('wrong.mjs'), '--trials', '1000'], status: 1 }],
  },
  "describe's exact line: muster run FILE --exact": {
    argv: ['describe', file('many.mjs')],
    stream: 'stdout',
    hint: /muster run \S*many\.mjs --exact prints it/,
    follow: [{ says: '--exact prints it', argv: ['run', file('many.mjs'), '--exact'] }],
  },
  'a mistyped option, a loose parameter, a range in another syntax: did you mean': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--metrc', 'a.wins'],
    hint: /did you mean "--metric"\?\); allowed: an option muster sweep --help lists$/m,
    follow: [
      { says: '--metric', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--metric', 'a.wins', '--exact'] },
      { says: 'muster sweep --help', argv: ['sweep', '--help'] },
    ],
  },
  'a parameter without --set': {
    argv: ['run', 'infinity', 'wipA=13'],
    hint: /did you mean --set wipA=13\?/,
    follow: [{ says: '--set wipA=13', argv: ['run', 'infinity', '--set', 'wipA=13', '--exact'] }],
  },
  'a range written with a dash': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=0-1'],
    hint: /did you mean bonusA=0\.\.1\?/,
    follow: [{ says: 'bonusA=0..1', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] }],
  }, // muster shard and muster merge: the run's shards and their tally files.
  'a shard with --json: muster merge --json': {
    argv: ['shard', 'rolloff', '--shard', '0/1', '--out', file('r0.json'), '--json', file('r.json')],
    hint: /allowed: no --json for a shard \(its tally goes to --out; muster merge --json writes the result\)$/m,
    follow: [
      {
        says: 'no --json for a shard',
        argv: ['shard', 'rolloff', '--shard', '0/1', '--out', file('r0.json'), ...QUICK],
      },
      { says: 'muster merge --json', argv: ['merge', file('r0.json'), '--json', file('r.json')] },
    ],
  },
  "merging a run's shards with --html: --json and --confidence": {
    argv: ['merge', file('r0.json'), '--html', file('r.html')],
    hint: /^muster: --html: only when merging the shards of a sweep or a comparison; allowed: --json and --confidence for a run$/m,
    follow: [
      { says: '--json', argv: ['merge', file('r0.json'), '--json', file('r.json')] },
      { says: '--confidence', argv: ['merge', file('r0.json'), '--confidence', '0.9'] },
    ],
  },
  'shards of two streams: the same --stream': {
    setup: [
      ['shard', 'rolloff', '--shard', '0/2', '--out', file('t0.json'), '--stream', '1', ...SHARDED],
      ['shard', 'rolloff', '--shard', '1/2', '--out', file('t1.json'), ...SHARDED],
    ],
    argv: ['merge', file('t0.json'), file('t1.json')],
    hint: /allowed: shards of one stream \(run every shard with the same --stream\)$/m,
    follow: [
      {
        says: 'the same --stream',
        argv: ['shard', 'rolloff', '--shard', '1/2', '--out', file('t1.json'), '--stream', '1', ...SHARDED],
      },
      { says: 'shards of one stream', argv: ['merge', file('t0.json'), file('t1.json')] },
    ],
  },
  '--rule for the shards of a built-in rule': {
    argv: ['merge', file('r0.json'), '--rule', file('many.mjs')],
    hint: /is a shard of a built-in rule; allowed: --rule only for shards of a rule file$/m,
    follow: [
      { says: '--rule only for shards of a rule file', argv: ['merge', file('r0.json')] },
      {
        says: '--rule only for shards of a rule file',
        argv: ['shard', file('many.mjs'), '--set', 'n=2', '--shard', '0/1', '--out', file('f0.json'), ...QUICK],
      },
      { says: '--rule only for shards of a rule file', argv: ['merge', file('f0.json'), '--rule', file('many.mjs')] },
    ],
  },
  // The scheduler's shard place: each variant's remedy, provoked in the environment it is about.
  '--shards beside --shard i/n': {
    argv: ['shard', 'rolloff', '--shard', '0/2', '--shards', '2', '--out', file('s0.json')],
    hint: /allowed: --shard i\/n alone$/m,
    follow: [
      { says: '--shard i/n alone', argv: ['shard', 'rolloff', '--shard', '0/2', '--out', file('s0.json'), ...SHARDED] },
    ],
  },
  '--shard auto outside any scheduler: --shard i/n': {
    argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json')],
    hint: /allowed: run inside one, or --shard i\/n$/m,
    follow: [
      { says: '--shard i/n', argv: ['shard', 'rolloff', '--shard', '0/2', '--out', file('s0.json'), ...SHARDED] },
      {
        says: 'run inside one',
        env: { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '2' },
        argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'two schedulers at once: one environment, or --shard i/n': {
    env: { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '2', AWS_BATCH_JOB_ARRAY_INDEX: '0' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json')],
    hint: /allowed: the environment of one scheduler, or --shard i\/n$/m,
    follow: [
      {
        says: 'the environment of one scheduler',
        env: { AWS_BATCH_JOB_ARRAY_INDEX: '0', AWS_BATCH_JOB_ARRAY_SIZE: '2' },
        argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json'), ...SHARDED],
      },
      { says: '--shard i/n', argv: ['shard', 'rolloff', '--shard', '0/2', '--out', file('s0.json'), ...SHARDED] },
    ],
  },
  'a Slurm array of another size than --shards: leave --shards out': {
    env: { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '2' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '3', '--out', file('s0.json')],
    hint: /allowed: leave --shards out under Slurm, or the array's task count$/m,
    follow: [
      {
        says: 'leave --shards out under Slurm',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json'), ...SHARDED],
      },
      {
        says: "the array's task count",
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'an exported count other than --shards: leave --shards out, or the count': {
    env: { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '2' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '3', '--out', file('s0.json')],
    hint: /allowed: leave --shards out, or 2$/m,
    follow: [
      {
        says: 'leave --shards out',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json'), ...SHARDED],
      },
      {
        says: 'or 2',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'an index past --shards: --shards equal to the count': {
    env: { NOMAD_ALLOC_INDEX: '3' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json')],
    hint: /allowed: --shards equal to the group's count/m,
    follow: [
      {
        says: '--shards equal to',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '4', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'GNU parallel without --shards: the number of jobs': {
    env: { PARALLEL_SEQ: '2' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json')],
    hint: /^muster: --shards: missing; allowed: the number of jobs parallel runs/m,
    follow: [
      {
        says: 'the number of jobs parallel runs',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'GNU parallel past --shards: --shards equal to the number of jobs': {
    env: { PARALLEL_SEQ: '3' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json')],
    hint: /allowed: --shards equal to the number of jobs, such as parallel \.\.\. ::: \$\(seq 2\)$/m,
    follow: [
      {
        says: '--shards equal to the number of jobs',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '3', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'an LSF array of another size than --shards: leave --shards out': {
    env: { LSB_JOBINDEX: '1', LSB_JOBINDEX_END: '2' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '3', '--out', file('s0.json')],
    hint: /allowed: leave --shards out, or the array's task count$/m,
    follow: [
      {
        says: 'leave --shards out',
        argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'an LSF array without its end: --shards': {
    env: { LSB_JOBINDEX: '1' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--out', file('s0.json')],
    hint: /^muster: --shards: missing; allowed: the array's task count/m,
    follow: [
      {
        says: "the array's task count",
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  'an LSF index past --shards': {
    env: { LSB_JOBINDEX: '3' },
    argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '2', '--out', file('s0.json')],
    hint: /allowed: --shards equal to the array's task count$/m,
    follow: [
      {
        says: "--shards equal to the array's task count",
        argv: ['shard', 'rolloff', '--shard', 'auto', '--shards', '3', '--out', file('s0.json'), ...SHARDED],
      },
    ],
  },
  '{index} in a name outside a shard: {index} with --shard': {
    argv: ['run', 'rolloff', '--checkpoint', file('{index}.ckpt'), ...QUICK],
    hint: /holds \{index\} but this is not a shard; allowed: \{index\} with --shard$/m,
    follow: [
      {
        says: '{index} with --shard',
        argv: [
          'shard',
          'rolloff',
          '--shard',
          '0/1',
          '--out',
          file('i.json'),
          '--checkpoint',
          file('{index}.ckpt'),
          ...QUICK,
        ],
      },
    ],
  },
  // Outputs, cards and the parser's other lines.
  'an output named for another format: the option that writes it': {
    argv: ['run', 'rolloff', '--exact', '--json', file('x.csv'), '--csv', file('y.csv')],
    hint: /; --csv \S*x\.csv writes the CSV; allowed: a name ending \.json, or no extension$/m,
    follow: [
      { says: '--csv', argv: ['run', 'rolloff', '--exact', '--csv', file('x.csv')] },
      { says: 'a name ending .json', argv: ['run', 'rolloff', '--exact', '--json', file('x.json')] },
    ],
  },
  'a card --objective without --equilibrium': {
    argv: ['card', 'deployment', '--objective', 'S123', '--out', file('card.html')],
    hint: /^muster: --objective: only with --equilibrium; allowed: add --equilibrium, or leave it out$/m,
    follow: [
      { says: 'add --equilibrium', argv: ['card', 'deployment', '--equilibrium', '--out', file('card.html')] },
      { says: 'leave it out', argv: ['card', 'deployment', '--out', file('card.html')] },
    ],
  },
  'a missing option value: see the help': {
    argv: ['run', 'rolloff', '--trials'],
    hint: /^muster: --trials: missing its value; allowed: see muster run --help$/m,
    follow: [{ says: 'muster run --help', argv: ['run', '--help'] }],
  },
  'a mistyped command: did you mean, and the commands': {
    argv: ['swep', 'rolloff'],
    hint: /did you mean "sweep"\?\); allowed: /m,
    follow: [{ says: 'sweep', argv: ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'] }],
  },
  // Balance: each refusal's remedy is a balance that runs.
  'a balance without --metric: the metric, and muster describe': {
    argv: ['balance', 'rolloff', '--target', '50%', '--vary', 'bonusA=-1..1'],
    hint: /^muster: --metric: missing; allowed: the one metric to balance, such as \S+ \(muster describe rolloff lists them\)$/m,
    follow: [
      {
        says: 'the one metric to balance',
        argv: ['balance', 'rolloff', '--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-1..1'],
      },
      { says: 'muster describe rolloff', argv: ['describe', 'rolloff'] },
    ],
  },
  'a balance --exact with --stream: --exact alone, or a simulation': {
    argv: [
      'balance',
      'rolloff',
      '--metric',
      'a.wins',
      '--target',
      '50%',
      '--vary',
      'bonusA=-1..1',
      '--exact',
      '--stream',
      '1',
    ],
    hint: /^muster: --exact: cannot be combined with --stream; allowed: --exact alone, or a simulation$/m,
    follow: [
      {
        says: '--exact alone',
        argv: ['balance', 'rolloff', '--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-1..1', '--exact'],
      },
      {
        says: 'or a simulation',
        argv: [
          'balance',
          'rolloff',
          '--metric',
          'a.wins',
          '--target',
          '50%',
          '--vary',
          'bonusA=-1..1',
          '--stream',
          '1',
          ...QUICK,
        ],
      },
    ],
  },
  'a missing rule: muster list': {
    argv: ['run'],
    hint: /^muster: rule: missing; allowed: a rule id \(muster list\)$/m,
    follow: [{ says: 'muster list', argv: ['list'] }],
  },
  // The lines of analysis/, engine/, input/ and rules/ that name a flag: each refusal's "allowed:" done as it says.
  'a variant without a label: "label: name=value,…"': {
    argv: ['compare', 'rolloff', '--variant', ': bonusA=1', '--variant', 'b: bonusA=2'],
    hint: /^muster: --variant: got ": bonusA=1"; allowed: "label: name=value,…" with a non-empty label$/m,
    follow: [
      {
        says: '"label: name=value,…"',
        argv: ['compare', 'rolloff', '--variant', 'a: bonusA=1', '--variant', 'b: bonusA=2'],
      },
    ],
  },
  'a variant naming two rules: at most one rule=…': {
    argv: ['compare', 'rolloff', '--variant', 'a: rule=rolloff,rule=noctvale', '--variant', 'b: bonusA=2'],
    hint: /^muster: --variant: got "a: rule=rolloff,rule=noctvale"; allowed: at most one rule=… in a variant$/m,
    follow: [
      {
        says: 'at most one rule=…',
        argv: ['compare', 'rolloff', '--variant', 'a: rule=noctvale', '--variant', 'b: bonusA=2'],
      },
    ],
  },
  'a --vary value listed twice: each value once': {
    argv: ['sweep', 'rolloff', '--vary', 'bonusA=1,1', '--exact'],
    hint: /^muster: --vary: bonusA lists "1" twice; allowed: each value once$/m,
    follow: [{ says: 'each value once', argv: ['sweep', 'rolloff', '--vary', 'bonusA=1', '--exact'] }],
  },
  'a --vary JSON array of objects: an array of texts, numbers or booleans': {
    argv: ['sweep', 'warbands', '--vary', 'warbands=[{"a":1}]', '--exact'],
    hint: /^muster: --vary: warbands=.*; allowed: a JSON array of one or more texts, numbers or booleans, such as warbands=\["v1","v2"\]$/m,
    follow: [
      {
        says: 'such as warbands=["v1","v2"]',
        argv: ['sweep', 'warbands', '--vary', 'warbands=["152:9,148:11","120:8,100:9"]', '--exact'],
      },
    ],
  },
  'a checkpoint that is not one: one this command wrote, or a new file': {
    setup: [['run', 'rolloff', '--checkpoint', file('ck-other.json'), ...QUICK]],
    argv: ['run', 'rolloff', '--checkpoint', file('ck-bad.json'), ...QUICK],
    hint: /^muster: --checkpoint: .*ck-bad\.json is not a muster checkpoint .*; allowed: a checkpoint this same command wrote, or a new file$/m,
    follow: [
      {
        says: 'a checkpoint this same command wrote',
        argv: ['run', 'rolloff', '--checkpoint', file('ck-other.json'), ...QUICK],
      },
      { says: 'or a new file', argv: ['run', 'rolloff', '--checkpoint', file('ck-new.json'), ...QUICK] },
    ],
  },
  "a checkpoint from another run: the checkpoint's command, or a new file": {
    setup: [['run', 'rolloff', '--checkpoint', file('ck-one.json'), ...QUICK]],
    argv: ['run', 'rolloff', '--set', 'bonusA=1', '--checkpoint', file('ck-one.json'), ...QUICK],
    hint: /^muster: --checkpoint: .*ck-one\.json is from another run \(params\.bonusA 0 there, 1 now\); allowed: the same command as the checkpoint's, or a new file$/m,
    follow: [
      {
        says: "the same command as the checkpoint's",
        argv: ['run', 'rolloff', '--checkpoint', file('ck-one.json'), ...QUICK],
      },
      {
        says: 'or a new file',
        argv: ['run', 'rolloff', '--set', 'bonusA=1', '--checkpoint', file('ck-two.json'), ...QUICK],
      },
    ],
  },
  '--precision beside --trials: one of the two, --max-trials to cap': {
    argv: ['run', 'rolloff', '--precision', '0.01', '--trials', '1000'],
    hint: /^muster: --precision: cannot be combined with --trials; allowed: one of the two \(--max-trials caps --precision\)$/m,
    follow: [
      { says: 'one of the two', argv: ['run', 'rolloff', '--precision', '0.01', '--threads', '1'] },
      { says: 'one of the two', argv: ['run', 'rolloff', '--trials', '1000', '--threads', '1'] },
      {
        says: '--max-trials caps --precision',
        argv: ['run', 'rolloff', '--precision', '0.01', '--max-trials', '20000', '--threads', '1'],
      },
    ],
  },
  '--max-trials alone: --precision E --max-trials N': {
    argv: ['run', 'rolloff', '--max-trials', '1000'],
    hint: /^muster: --max-trials: only meaningful with --precision; allowed: --precision E --max-trials N$/m,
    follow: [
      {
        says: '--precision E --max-trials N',
        argv: ['run', 'rolloff', '--precision', '0.01', '--max-trials', '20000', '--threads', '1'],
      },
    ],
  },
  "deployment's --range with no strategies: strategies, or a family's word": {
    argv: ['matrix', 'deployment', '--range', ''],
    hint: /^muster: --range: got "" \(no strategies\); allowed: strategies separated by spaces or semicolons \(such as "forward:1 standard:1,2,3"\), or standard, forward or all for that family$/m,
    follow: [
      { says: '"forward:1 standard:1,2,3"', argv: ['matrix', 'deployment', '--range', 'forward:1 standard:1,2,3'] },
      {
        says: 'separated by spaces or semicolons',
        argv: ['matrix', 'deployment', '--range', 'forward:1;standard:1,2,3'],
      },
      { says: 'or standard, forward', argv: ['matrix', 'deployment', '--range', 'standard'] },
    ],
  },
  "deployment's --range with a word it does not know: the same ways": {
    argv: ['matrix', 'deployment', '--range', 'bogus'],
    hint: /^muster: --range: got "bogus" \(not standard:… or forward:…\); allowed: strategies separated by spaces/m,
    follow: [
      { says: 'or standard, forward or all', argv: ['matrix', 'deployment', '--range', 'forward'] },
      { says: 'or standard, forward or all', argv: ['matrix', 'deployment', '--range', 'all'] },
    ],
  },
  "a rule file's matrix --range past 60 values: a..b within it, or a list": {
    argv: ['matrix', file('many.mjs'), '--range', '1..99'],
    hint: /^muster: --range: got "1\.\.99"; allowed: a\.\.b with whole numbers, a ≤ b, at most 60 values, or v1,v2,…$/m,
    follow: [
      { says: 'a..b with whole numbers', argv: ['matrix', file('many.mjs'), '--range', '1..2'] },
      { says: 'or v1,v2,…', argv: ['matrix', file('many.mjs'), '--range', '1,2'] },
    ],
  },
  "a rule file's matrix --range outside an axis: values both take": {
    argv: ['matrix', file('many.mjs'), '--range', '0,1'],
    hint: /^muster: --range: got "0,1"; allowed: values both n \(.*\) and more \(.*\) take, as a\.\.b or v1,v2,…$/m,
    follow: [
      { says: 'values both n', argv: ['matrix', file('many.mjs'), '--range', '1,2'] },
      { says: 'as a..b', argv: ['matrix', file('many.mjs'), '--range', '1..2'] },
    ],
  },
};

describe('every hint that names a flag or a command, followed', () => {
  for (const [name, spec] of Object.entries(cases)) it(name, () => provokeAndFollow(spec));
});

describe('a refusal with no flag of its own offers only what the rule can change', () => {
  /** Flags a line may name; a rule's remedy names none, and the simulation is left to the command. */
  const FLAG = /--[a-z]/;

  it('a card that cannot be exact says why, and is simulated', async () => {
    const { status, stderr } = await cli('card', file('many.mjs'), '--set', 'n=9', '--out', file('many.html'));
    expect(status, stderr).toBe(0);
    const [note] = stderr.split('\n');
    expect(note).toMatch(
      /^muster: note: the card is simulated, as many has no exact values at n=4 sides=6 more=4: enumeration needs more than 1,000,000 paths; exact values need the step form/,
    );
    expect(note).not.toMatch(FLAG);
  });

  it('a comparison that cannot be exact says which variant and why, and is simulated', async () => {
    const { status, stderr } = await cli('compare', file('many.mjs'), '--variant', 'a: n=6', '--variant', 'b: n=9');
    expect(status, stderr).toBe(0);
    expect(stderr).toMatch(
      /^muster: note: simulated, as the variant "b" has no exact values: enumeration needs more than 1,000,000 paths; exact values need the step form/m,
    );
    expect(stderr.split('\n').find((line) => line.startsWith('muster: note'))).not.toMatch(FLAG);
  });

  it('dice.random() beside a simulation: another die in its place, no flag', async () => {
    const { status, stderr } = await cli('run', file('uniform.mjs'), ...QUICK);
    expect(status).toBe(0);
    expect(stderr).toMatch(
      /^muster: note: no exact values beside the simulation: dice\.random\(\) cannot be enumerated .*; exact values need dice\.d, dice\.count, dice\.below or dice\.chance\(p\) in its place/,
    );
    expect(stderr).not.toMatch(FLAG);
  });
});

describe("the enumeration's budget lines, each right for the form it is printed for", () => {
  it('a step form past its states: a state that keeps less, said once, and no step form offered', async () => {
    // Each step adds 1 or 2 and the chain ends past 150,000: about 100,000 states are reached before that.
    writeFileSync(
      file('states.mjs'),
      `export default { id: 'states', title: 's', metrics: [{ name: 'x', probability: true }],
  start: () => ({ n: 0 }), step: (s, dice) => ({ n: s.n + dice.d(2) }), done: (s) => s.n > 150000,
  report(s, p, out) { out.x = s.n % 2 === 0; } };
`,
    );
    const { status, stderr } = await cli('run', file('states.mjs'), '--exact');
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /^muster: \S+states\.mjs \(rule states\): enumeration reaches more than 100,000 states \(the state .*\); allowed: a state that keeps less \(merge what no later step reads\), or simulation \(leave out --exact\)\n$/,
    );
    expect(stderr.match(/keeps less/g)).toHaveLength(1);
    expect(stderr).not.toContain('step form');
  });

  it('a finite trial past 10,000 dice is not told it loops: dice.count, or the step form for a loop', async () => {
    writeFileSync(
      file('pool.mjs'),
      `export default { id: 'pool', title: 'p', metrics: [{ name: 'x', probability: true }],
  trial(dice, p, out) { let hits = 0; for (let i = 0; i < 10001; i++) hits += dice.d(2) === 2 ? 1 : 0; out.x = hits > 5000; } };
`,
    );
    const { status, stderr } = await cli('run', file('pool.mjs'), '--exact');
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /enumeration needs more than 10,000 dice on one path of the trial; allowed: dice\.count\(n, sides, atLeast\) for many dice rolled at once, or the step form for a roll repeated until something happens .*, or simulation \(leave out --exact\)\n$/,
    );
    expect(stderr).not.toMatch(/paths of every length/);
    const followed = await cli('run', file('pool.mjs'), '--trials', '1000', '--threads', '1');
    expect(followed.status, followed.stderr).toBe(0);
  });
});

describe('compare and card, exact by default, enumerate a rule file to the full budget as run --exact does', () => {
  // n = 7: 6^7 = 279,936 paths, past the 50,000 tried beside a simulation and within the 1,000,000 of --exact.
  // Hand-known: seven d6 sum above 24.5 with chance 1/2 (the sum is symmetric about 24.5).
  it('compare solves it: exact values, no simulation, no note', async () => {
    const { status, stdout, stderr } = await cli(
      'compare',
      file('many.mjs'),
      '--variant',
      'a: n=7',
      '--variant',
      'b: n=1',
    );
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('exact values (no simulation; --simulate to simulate)');
    // One d6 above 3.5: 4, 5 or 6, 1/2 too; the difference is exactly 0.
    expect(stdout).toMatch(/^x\s+50\.000% = 1\/2\s+50\.000% = 1\/2\s+±0\.000 pp$/m);
    expect(stderr).toBe('');
  });

  it('card solves it: the exact card, no note', async () => {
    // Five-sided dice, n and more each 3 or 4: 5^6 to 5^8 = 390,625 paths, three of the four cells past 50,000.
    const out = file('exact-card.html');
    const { status, stderr } = await cli('card', file('many.mjs'), '--set', 'sides=5', '--range', '3..4', '--out', out);
    expect(status, stderr).toBe(0);
    expect(stderr).not.toContain('simulated');
    expect(readFileSync(out, 'utf8')).toContain('exact values (rational arithmetic, no simulation)');
  });
});

describe('hints printed by a process, or beside a file written', () => {
  const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

  /** The built CLI with standard output on `descriptor`, as the shell's `> /dev/full` sets it. */
  function runTo(descriptor: number, argv: string[]): Promise<{ status: number | null; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...argv], { cwd: folder, stdio: ['ignore', descriptor, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
  }

  // The line once offered "an output file (--json FILE, --csv FILE)": followed, the table still goes to the full
  // standard output and the run fails the same way, so the line offers no flag, and this shows why.
  it.skipIf(!existsSync('/dev/full'))('a full standard output: no output option offered, as none helps', async () => {
    const descriptor = openSync('/dev/full', 'w');
    try {
      const argv = ['run', 'infinity', '--exact', '--quiet'];
      const provoked = await runTo(descriptor, argv);
      expect(provoked.status).toBe(2);
      expect(provoked.stderr).toMatch(
        /^muster: standard output: cannot write \(.*\); allowed: a pipe, terminal or file with room\n$/,
      );
      expect(provoked.stderr).not.toMatch(/--[a-z]/);
      const withFile = await runTo(descriptor, [...argv, '--json', file('full.json')]);
      expect(withFile.status).toBe(2);
      expect(withFile.stderr).toContain('muster: standard output: cannot write');
    } finally {
      closeSync(descriptor);
    }
  });

  it("new-rule's next steps: each muster command it prints runs", async () => {
    const provoked = await cli('new-rule', file('fresh'));
    expect(provoked.status, provoked.stderr).toBe(0);
    const lines = provoked.stdout.split('\n').filter((line) => line.startsWith('  muster '));
    expect(lines.map((line) => line.trim().split(/\s{2,}/)[1])).toEqual([
      'its parameters and metrics',
      'the exact odds',
      'simulated, with intervals',
    ]);
    for (const line of lines) {
      const argv = line
        .trim()
        .split(/\s{2,}/)[0]
        .split(' ')
        .slice(1);
      const followed = await cli(...argv);
      expect(followed.stderr, line).not.toMatch(USAGE);
      expect(followed.status, `${line}\n${followed.stderr}`).toBe(0);
    }
    // Written again, it is refused and names no flag: a new NAME is the way.
    const again = await cli('new-rule', file('fresh'));
    expect(again.stderr).toMatch(/allowed: a name whose \.mjs and \.test\.mjs files do not exist yet/);
    expect(again.stderr).not.toMatch(/--[a-z]/);
  });
});

describe('no new hint goes unlisted', () => {
  /** A line of a message that offers a way ("allowed:", "did you mean", "leave out --", "instead" …). */
  const OFFERS = /allowed:|did you mean|leave out --|add --|try --|use --|instead|in its place/;
  /** … and names a flag or a command, on that line or the next (long messages are split over two). */
  const NAMES =
    /--[a-z]|muster (run|sweep|compare|matrix|card|book|app|check|describe|list|merge|shard|balance|new-rule)\b/;

  /**
   * Lines of src/ that offer a way and name a flag or command, per file. The CLI's (src/cli.ts, src/cli/,
   * src/output/) are followed above, and so are those of src/analysis/, src/engine/, src/input/ and src/rules/,
   * which reach the user through those commands; a distribution tail's refusals (analysis/tails.ts) name the option
   * they came through, and test/cli/tail-names-cli.test.ts follows them. A count that changes fails: write the new
   * hint's case above, then the count here.
   */
  const LISTED: Record<string, number> = {
    'src/analysis/balance.ts': 6,
    'src/analysis/best.ts': 2,
    'src/analysis/compare.ts': 4,
    'src/analysis/matrix.ts': 6,
    'src/analysis/metrics.ts': 2,
    // Followed through main() in test/cli/compare-call.test.ts (--simulate, --trials with a call variant).
    'src/analysis/reserves-call-compare.ts': 1,
    // Followed in test/rules/reserves-call.test.ts (--exact with --trials; --precision simulated).
    'src/analysis/reserves-call-sweep.ts': 2,
    'src/analysis/reserves-call.ts': 2,
    'src/analysis/solve-point.ts': 1,
    'src/analysis/sweep.ts': 6,
    'src/analysis/variant.ts': 5,
    'src/analysis/vary.ts': 2,
    'src/cli/best.ts': 1,
    'src/cli/checkpoint-option.ts': 2,
    'src/cli/declare/analysis-commands.ts': 2,
    'src/cli/commands/app.ts': 2,
    'src/cli/commands/balance.ts': 3,
    'src/cli/commands/card.ts': 2,
    'src/cli/commands/check.ts': 1,
    // Two for a call variant (--objective without one, --out with one): test/cli/compare-call.test.ts.
    'src/cli/commands/compare.ts': 6,
    'src/cli/commands/grid-shard.ts': 11,
    'src/cli/commands/matrix.ts': 2,
    // Followed through main() in test/cli/reserves-call-sweep.test.ts (--svg, --trials; --vary chosenRound, no --vary).
    'src/cli/commands/reserves-call-sweep.ts': 1,
    'src/cli/commands/run.ts': 6,
    'src/cli/commands/shard.ts': 6,
    'src/cli/commands/sweep.ts': 3,
    'src/shards/grid-shard-file.ts': 1,
    'src/cli/parser-errors.ts': 5,
    'src/shards/scheduler.ts': 22,
    'src/shards/shard-file.ts': 4,
    'src/engine/checkpoint.ts': 2,
    'src/engine/settings.ts': 2,
    'src/output/files.ts': 1,
    'src/rules/deployment/params.ts': 2,
    // The page's label for its simulate box ("… instead, as muster run does"), counted since the page is in src/.
    'src/page/form-view.ts': 1,
    'src/rule-files/matrix.ts': 2,
    'src/rules/params.ts': 1,
  };

  it('every hint-like line in src/ is in the list, and the list names only what src/ has', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const found = new Map<string, number>();
    for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      const shown = relative(root, path).split(sep).join('/');
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const text = line.trim();
        if (text.startsWith('//') || text.startsWith('*') || text.startsWith('/*')) return;
        const next = (lines[i + 1] ?? '').trim();
        if (OFFERS.test(text) && /['`"]/.test(text) && NAMES.test(`${text} ${next}`))
          found.set(shown, (found.get(shown) ?? 0) + 1);
      });
    }
    expect(Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual(LISTED);
  });
});

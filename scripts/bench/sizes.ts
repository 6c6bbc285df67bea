/**
 * `npm run bench:sizes [-- --stream N] [--rule ID,…]`: every built-in rule's cost a die at
 * its defaults, at the largest parameters it allows, and at the sizes in
 * between where its code changes path (a histogram's limit, a draw's
 * digits), each against the same rule's cost a die at its defaults: the
 * "no cliffs" claim is that the largest is within 1.5× of the defaults.
 * `npm run bench` prints the same table.
 *
 * A rule with no entry in SIZES stops the bench (checkSizeCoverage), and a
 * test checks that each rule's "largest" rows set every integer parameter
 * to the end that makes the rule the biggest (its `extent`), so a new rule or a
 * new parameter cannot slip past the claim unmeasured.
 *
 * Dice are counted as `npm run bench` counts them (dicePerTrial): on stream
 * 1, one uniform a die, the same for every stream, so a cost a die on any
 * stream is CPU time a trial ÷ the dice the rule text rolls.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Rng, StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM, STREAM_VERSIONS, TycheStream } from '../../src/engine/random.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';

/** Largest cost a die at a rule's largest parameters, as a multiple of its cost a die at the defaults. */
export const CLIFF_LIMIT = 1.5;

/** One setting measured: `--set` assignments, a short label for the table, and what the row is for. */
export interface SizeRow {
  set: readonly string[];
  label?: string;
  /** The largest parameters the rule allows (the claim's rows); otherwise the defaults or a size in between. */
  largest?: true;
}

/**
 * For each integer parameter, which end of its range makes the rule biggest (`max`, `min`), or why its value
 * does not: the largest rows must resolve it to that end.
 */
export type Extent = Readonly<Record<string, 'max' | 'min' | { free: string }>>;

export interface RuleSizes {
  /** The defaults first (set []), then the sizes in between, the largest marked. */
  rows: readonly SizeRow[];
  extent: Extent;
}

/** `count` warbands of the same rating and models: every roll-off among them ties as often as it can. */
const equalWarbands = (count: number) => Array.from({ length: count }, () => '10000:200').join(',');

const FOW_LARGEST = [
  'attackerPlatoons=30',
  'attackerReserves=30',
  'defenderPlatoons=30',
  'defenderReserves=30',
  'ambush=false',
  'defenderStart=1',
  'guarantee=0',
  'turns=20',
  'endTurn=20',
  'scatter=1:a,2:b,3:c,4:d,5:e,6:f',
];

/** Every built-in rule by size, keyed by rule id. */
export const SIZES: Readonly<Record<string, RuleSizes>> = {
  reserves: {
    // Around and beyond its outcome histogram, (squads+1)^(rounds+1) ≤ 2^18: 11 squads in 4 rounds, 1 in 12.
    rows: [
      { set: [] },
      { set: ['squads=11'] },
      { set: ['squads=12'] },
      { set: ['squads=20'] },
      { set: ['rounds=12', 'squads=1'] },
      { set: ['rounds=12', 'squads=2'] },
      { set: ['rounds=12', 'squads=8'] },
      { set: ['rounds=12', 'squads=100'], largest: true },
      {
        set: ['rounds=12', 'squads=100', 'chosenRound=6', 'leaderLoss=0.15', 'fallbackCommand=1'],
        label: 'rounds=12 squads=100 chosenRound=6 leaderLoss=0.15 fallbackCommand=1',
        largest: true,
      },
    ],
    extent: {
      squads: 'max',
      rounds: 'max',
      firstRound: 'min',
      // Measured: 100 squads in 12 rounds roll 1,200 dice at target 20 against 278 at 7, at a lower cost a die.
      target: { free: 'the arrival threshold: more dice a squad when higher, through the same tables' },
      chosenRound: { free: 'which round adds the bonus: a second table of codes, whichever round' },
      command: { free: 'the bonus itself, a column of the same table' },
      fallbackCommand: { free: 'the bonus without the commander, as command' },
    },
  },
  deployment: {
    rows: [
      { set: [] },
      { set: ['a=forward:1', 'b=forward:1'], label: 'a, b forward (2d6 each)' },
      {
        set: ['a=forward:1', 'b=forward:1', 'squadsA=60', 'squadsB=60', 'perTurn=1'],
        label: 'a, b forward, 60 squads each, 1 a turn',
        largest: true,
      },
    ],
    // Who places last is played out once a chunk, so squads and perTurn size only that.
    extent: { squadsA: 'max', squadsB: 'max', perTurn: 'min' },
  },
  infinity: {
    // Above WIP 20 the excess is added to the die (a different score table, more criticals, more ties).
    rows: [
      { set: [] },
      { set: ['wipA=20', 'wipB=20'] },
      { set: ['wipA=30', 'wipB=30'], largest: true },
      { set: ['wipA=30', 'wipB=30', 'crits=false'], largest: true },
    ],
    extent: { wipA: 'max', wipB: 'max' },
  },
  noctvale: {
    // Unequal counts roll no dice (the lower count has initiative): a cost a trial, no cost a die.
    rows: [
      { set: [] },
      { set: ['fightersA=60', 'fightersB=60', 'groups=10'], largest: true },
      { set: ['fightersA=60', 'fightersB=59', 'groups=10'] },
    ],
    extent: { fightersA: 'max', fightersB: 'max', groups: 'max' },
  },
  warbands: {
    // Setup orders and first players are one histogram code up to 2^14 codes: 5 warbands, not 6.
    rows: [
      { set: [] },
      { set: [`warbands=${equalWarbands(5)}`], label: '5 equal warbands' },
      { set: [`warbands=${equalWarbands(6)}`], label: '6 equal warbands' },
      {
        set: [`warbands=${equalWarbands(8)}`, 'allies=1+2,3+4'],
        label: '8 equal warbands, allies 1+2,3+4',
        largest: true,
      },
      {
        set: [`warbands=${equalWarbands(8)}`, 'defender=false'],
        label: '8 equal warbands, no defender',
        largest: true,
      },
    ],
    extent: {},
  },
  fow: {
    // A plan's draw holds 4 reserve dice at hit 6+ (base 6), 7 at 5+ (base 3), 12 at 4+ (base 2); a turn with more
    // dice than that is counted draw by draw.
    rows: [
      { set: [] },
      { set: ['turns=20', 'endTurn=20'] },
      { set: [...FOW_LARGEST, 'hit=5'], label: 'largest but hit 5+' },
      { set: [...FOW_LARGEST, 'hit=4'], label: 'largest but hit 4+' },
      { set: [...FOW_LARGEST, 'hit=6'], label: 'largest: 30 + 30 in reserve, 20 turns, 6+', largest: true },
    ],
    extent: {
      attackerPlatoons: 'max',
      attackerReserves: 'max',
      defenderPlatoons: 'max',
      defenderReserves: 'max',
      attackerStart: 'min',
      defenderStart: 'min',
      hit: 'max',
      // 0 (never) rolls the most dice; 20 as many but a scatter die in the few battles a last turn of 20 fails.
      guarantee: 'min',
      turns: 'max',
      endTurn: 'max',
    },
  },
  rolloff: {
    rows: [{ set: [] }, { set: ['bonusA=-6'] }, { set: ['bonusA=6'], largest: true }],
    extent: { bonusA: 'max' },
  },
};

/** Throws, naming the rule, when a built-in rule has no defaults and largest rows in SIZES or SIZES names no rule. */
export function checkSizeCoverage(
  table: Readonly<Record<string, RuleSizes>> = SIZES,
  builtIns: readonly { id: string }[] = rules,
): void {
  for (const rule of builtIns) {
    const sizes = Object.hasOwn(table, rule.id) ? table[rule.id] : undefined;
    if (sizes?.rows[0]?.set.length !== 0 || !sizes.rows.some((row) => row.largest))
      throw new Error(`scripts/bench/sizes.ts has no defaults and largest rows for ${rule.id}`);
  }
  for (const id of Object.keys(table))
    if (!builtIns.some((rule) => rule.id === id)) throw new Error(`scripts/bench/sizes.ts: no built-in rule ${id}`);
}

/**
 * Dice a trial rolls at `set`, counted over one chunk of stream 1, where
 * every die is one uniform (the same for every build: the streams are).
 * Later streams roll the same dice, several to a draw, so this is the dice
 * count the dice rates of every stream are measured in.
 */
export function dicePerTrial(ruleId: string, set: readonly string[] = []): number {
  const rule = rules.find((r) => r.id === ruleId)!;
  const params = resolveParams(rule, set);
  const stream = new TycheStream('bench/draws').random;
  let dice = 0;
  const counting: Rng = Object.assign(
    () => {
      dice++;
      return stream();
    },
    {
      stream: stream.stream,
      roll: (sides: number) => {
        dice++;
        return stream.roll(sides);
      },
      count: (n: number, sides: number, atLeast: number) => {
        dice += n;
        return stream.count(n, sides, atLeast);
      },
      below: (bound: number) => {
        throw new Error(`${ruleId}: stream 1's dice are drawn one uniform a die; below(${bound}) is later streams'`);
      },
    },
  );
  rule.tally.simulate(params, counting, CHUNK_TRIALS, new Float64Array(rule.tally.length(params)));
  return dice / CHUNK_TRIALS;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export function formatTable(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) =>
    row
      .map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

/** Reserves' stream before stream 4 read its large sizes four dice a draw: shown beside for history. */
const HISTORY_STREAM: StreamVersion = 3;

/**
 * Measures every row of SIZES on `stream` (CPU time a trial on one thread, each figure the median of `repeats`
 * probes, each in a process of its own, the rows taken turn about so a change of load falls on all of them) and
 * returns the table's lines.
 */
export function sizesReport({
  stream,
  repeats,
  only = rules.map((rule) => rule.id),
}: {
  stream: StreamVersion;
  repeats: number;
  /** The rules measured (all by default). */
  only?: readonly string[];
}): string[] {
  checkSizeCoverage();
  const probe = join(fileURLToPath(new URL('.', import.meta.url)), 'probe.js');
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const history = stream !== HISTORY_STREAM && only.includes('reserves');
  const measured = rules
    .filter((rule) => only.includes(rule.id))
    .flatMap((rule) =>
      SIZES[rule.id].rows.map((row) => ({
        id: rule.id,
        row,
        dice: dicePerTrial(rule.id, row.set),
        streams: history && rule.id === 'reserves' ? [stream, HISTORY_STREAM] : [stream],
        ns: [] as number[][],
      })),
    );
  for (const entry of measured) entry.ns = entry.streams.map(() => []);
  for (let repeat = 0; repeat < repeats; repeat++)
    for (const entry of measured)
      entry.streams.forEach((version, s) => {
        const args = [probe, 'cost', root, entry.id, String(version), `bench-size-${repeat}`, ...entry.row.set];
        entry.ns[s].push(
          (JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as { nsPerTrial: number }).nsPerTrial,
        );
      });
  const cells = (entry: (typeof measured)[number], s: number): string[] => {
    if (s >= entry.streams.length) return ['', '', ''];
    const ns = median(entry.ns[s]);
    const defaults = measured.find((other) => other.id === entry.id)!;
    const perDie = ns / entry.dice;
    const against = perDie / (median(defaults.ns[s]) / defaults.dice);
    const noDice = entry.dice === 0 || defaults.dice === 0;
    return [
      `${ns.toFixed(1)} ns`,
      noDice ? '—' : `${perDie.toFixed(2)} ns`,
      noDice ? '—' : `${against.toFixed(2)}×`,
      ...(s === 0 ? [noDice ? 'no dice' : against <= CLIFF_LIMIT ? 'yes' : 'NO'] : []),
    ];
  };
  const header = ['rule', 'setting', 'dice/trial', 'ns a trial', 'cost/d6', '÷ defaults', `≤ ${CLIFF_LIMIT}×`];
  if (history) header.push(`stream ${HISTORY_STREAM}`, 'cost/d6', '÷ defaults');
  const lines = [
    `Every rule by size, stream ${stream}${stream === DEFAULT_STREAM ? ' (the default)' : ''}, one thread, in-process, ` +
      `CPU, median of ${repeats}: dice a trial`,
    "(counted on stream 1, one uniform a die), ns a trial, cost a die, and that cost ÷ the rule's own at its defaults",
    `(its first row). The claim is read on the rows marked *, the largest parameters the rule allows: within ` +
      `${CLIFF_LIMIT}× of`,
    'its defaults. The rows between show where the code changes path (a row with few dice carries the fixed cost of',
    'a trial on few dice: no cliff by itself). A row with no dice has no cost a die.',
  ];
  if (history) lines.push(`reserves on stream ${HISTORY_STREAM} beside, for history.`);
  const table: string[][] = [header];
  for (const entry of measured) {
    const label = `${entry.row.largest ? '* ' : ''}${entry.row.label ?? (entry.row.set.join(' ') || '(defaults)')}`;
    const row = [entry.id, label, entry.dice.toFixed(2), ...cells(entry, 0)];
    if (history) row.push(...cells(entry, 1));
    table.push(row);
  }
  lines.push(...formatTable(table));
  const spelled = measured.filter((entry) => entry.row.label && entry.row.label !== entry.row.set.join(' '));
  if (spelled.length > 0)
    lines.push('where', ...spelled.map((e) => `  ${e.id} ${e.row.label}: ${e.row.set.join(' ')}`));
  return lines;
}

function main(argv: readonly string[]): void {
  const at = argv.indexOf('--stream');
  const stream = at >= 0 ? Number(argv[at + 1]) : DEFAULT_STREAM;
  if (!STREAM_VERSIONS.includes(stream as StreamVersion))
    throw new Error(`--stream: got ${argv[at + 1]}; allowed: ${STREAM_VERSIONS.join(', ')}`);
  const ruleAt = argv.indexOf('--rule');
  const only = ruleAt >= 0 ? (argv[ruleAt + 1] ?? '').split(',') : undefined;
  const unknown = only?.filter((id) => !rules.some((rule) => rule.id === id)) ?? [];
  if (unknown.length > 0)
    throw new Error(`--rule: got ${unknown.join(', ')}; allowed: ${rules.map((rule) => rule.id).join(', ')}`);
  const repeats = Number(process.env.BENCH_REPEATS ?? 5);
  process.stdout.write(`${sizesReport({ stream: stream as StreamVersion, repeats, only }).join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));

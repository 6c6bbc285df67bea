/**
 * Writes test/golden/streams.json (stream 1) or streams-N.json (stream N):
 * what every built-in rule reads off its tally (each metric's integer
 * counts and sums) for a few settings and seeds, run in-process over three
 * chunks, the last one short. The stream-1 file was generated with the
 * engine as it stood before the reusable stream (seedrandom's tychei per
 * chunk; main at e0cf356, the script copied into a build of it); the
 * stream-2 and stream-3 files when those streams were adopted.
 * test/engine/golden-streams.test.ts pins them all: any change to a generator, its
 * seeding or a rule's order of dice shows up there. Regenerate only for a
 * deliberate change of stream, and only that stream's file: `npm run build
 * && node dist/scripts/golden-tallies.js --stream 3`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StreamVersion } from '../src/contract/types.js';
import { CHUNK_TRIALS } from '../src/engine/chunks.js';
import { STREAM_VERSIONS } from '../src/engine/random.js';
import { getRule, runBuiltinChunks } from '../src/rules/index.js';
import { resolveParams } from '../src/rules/params.js';
import type { Tallied } from '../src/stats/estimate.js';

/** The settings pinned, per rule: the defaults and the branches each hot loop takes. */
export const GOLDEN_SETTINGS: Record<string, string[][]> = {
  reserves: [
    [],
    ['chosenRound=3', 'command=3', 'leaderLoss=0.2', 'fallbackCommand=1'],
    ['squads=20', 'rounds=6', 'chosenRound=2', 'leaderLoss=0.3'], // beyond the outcome histogram: running sums
    ['firstRound=2', 'chosenRound=3', 'command=4'],
  ],
  deployment: [
    [],
    ['a=forward:3', 'b=forward:1', 'compare=modified'],
    ['a=standard:1,2,4', 'b=forward:6', 'edges=long', 'perTurn=3'],
  ],
  infinity: [[], ['wipA=24', 'wipB=11', 'crits=false'], ['wipA=22', 'wipB=27']],
  noctvale: [[], ['fightersA=5', 'fightersB=9', 'groups=4']],
  warbands: [
    [],
    ['warbands=100:10,100:10,100:10,100:10,60:5', 'allies=1+2', 'defender=false'],
    ['warbands=200:12,200:12,90:7,300:30,10:3,10:3,10:3,10:3'],
    ['warbands=120:9,120:9,120:9,80:12'], // three tied for defender: a roll-off
    ['warbands=100:9,40:9,60:5,150:12', 'allies=2+3', 'underdogBy=warband'],
  ],
  fow: [
    [],
    [
      'attackerPlatoons=9',
      'attackerReserves=7',
      'defenderPlatoons=8',
      'ambush=false',
      'hit=4',
      'guarantee=0',
      'turns=9',
    ],
    ['scatter=1:a,2-3:b,4-6:c', 'defenderStart=1'],
    ['turns=4', 'endTurn=9', 'attackerStart=3'], // followed past the turns shown, to the end check
  ],
};

export const GOLDEN_SEEDS = ['muster', 'golden-2'];
/** Three chunks, the last one short. */
export const GOLDEN_TRIALS = 2 * CHUNK_TRIALS + 4_321;

export interface GoldenCase {
  rule: string;
  set: string[];
  seed: string;
  trials: number;
  tallied: Record<string, Tallied>;
}

/** The file that pins `stream`, relative to the test folder. */
export const goldenFile = (stream: StreamVersion) =>
  stream === 1 ? 'golden/streams.json' : `golden/streams-${stream}.json`;

export function goldenCases(stream: StreamVersion): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const [ruleId, settings] of Object.entries(GOLDEN_SETTINGS)) {
    const rule = getRule(ruleId);
    for (const set of settings) {
      const params = resolveParams(rule, set);
      for (const seed of GOLDEN_SEEDS) {
        const tally = runBuiltinChunks({
          ruleId,
          params,
          seed,
          stream,
          firstChunk: 0,
          endChunk: 3,
          totalTrials: GOLDEN_TRIALS,
        });
        cases.push({
          rule: ruleId,
          set,
          seed,
          trials: GOLDEN_TRIALS,
          tallied: rule.tally.summarize(params, tally, GOLDEN_TRIALS),
        });
      }
    }
  }
  return cases;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--stream');
  const stream = STREAM_VERSIONS.find((version) => String(version) === (at >= 0 ? process.argv[at + 1] : undefined));
  if (stream === undefined)
    throw new Error(
      `usage: golden-tallies.js --stream ${STREAM_VERSIONS.join('|')} (regenerate only the stream you changed on ` +
        `purpose)`,
    );
  const out = fileURLToPath(new URL(`../../test/${goldenFile(stream)}`, import.meta.url));
  // One case a line: diffs stay readable when a deliberate change of stream regenerates it.
  writeFileSync(
    out,
    `[\n${goldenCases(stream)
      .map((c) => JSON.stringify(c))
      .join(',\n')}\n]\n`,
  );
  process.stdout.write(`wrote ${out}\n`);
}

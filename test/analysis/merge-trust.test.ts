/**
 * Merge trusts nothing: every field of a shard is checked before it is
 * added. Each forgery below was merged with exit 0 before (an edited count
 * gave 26.7% against an exact 16.7%, a negative count −483%, chunks.end =
 * 1e10 looped for minutes). Real shards of every built-in rule are edited
 * one field at a time; each edit must be refused in one line naming the
 * file and the field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCommand, shardCommand } from '../../src/cli/commands/shard.js';
import { UsageError } from '../../src/errors.js';
import { rules } from '../../src/rules/index.js';
import { validateShard } from '../../src/shards/shard-file.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('merge-trust');
/** Two chunks (65,536 trials each) plus a short one: enough for a three-way split. */
const TRIALS = 140_000;

type Shard = Record<string, unknown> & {
  tally: number[];
  chunks: { first: number; end: number };
  params: Record<string, unknown>;
};

async function realShard(rule: string, index: number, shards: number): Promise<{ path: string; shard: Shard }> {
  const path = join(folder, `${rule}-${index}-of-${shards}.json`);
  await shardCommand(
    rule,
    { trials: String(TRIALS), shard: `${index}/${shards}`, out: path, threads: '1', seed: 'trust', quiet: true },
    bufferIo(),
  );
  return { path, shard: JSON.parse(readFileSync(path, 'utf8')) as Shard };
}

/** One forgery: what it edits, the edit, and the field the refusal must name. */
type Forgery = [string, (shard: Shard) => void, string];

const FORGERIES: Forgery[] = [
  ['an unknown field', (s) => void (s.note = 'hi'), '"note"'],
  ['the format', (s) => void (s.format = 'muster-tally/2'), 'format'],
  ['a missing field', (s) => void delete s.threads, 'threads'],
  ['another muster version', (s) => void (s.version = '0.0.0-other'), 'version'],
  ['no version', (s) => void delete s.version, 'version'],
  ['an unknown rule', (s) => void (s.rule = 'chess'), 'rule'],
  ['an unknown parameter', (s) => void (s.params.bogus = 1), 'params'],
  ['a parameter left out', (s) => void delete s.params[Object.keys(s.params)[0]], 'params'],
  ['a parameter of the wrong type', (s) => void (s.params[Object.keys(s.params)[0]] = [1]), 'params'],
  ['an empty seed', (s) => void (s.seed = ''), 'seed'],
  ['a seed that is not text', (s) => void (s.seed = 42), 'seed'],
  ['trials 0', (s) => void (s.trials = 0), 'trials'],
  ['fractional trials', (s) => void (s.trials = 1.5), 'trials'],
  ['trials above the limit', (s) => void (s.trials = 5e9), 'trials'],
  ['trials as text', (s) => void (s.trials = '140000'), 'trials'],
  ['chunks.end far past the run (1e10)', (s) => void (s.chunks.end = 1e10), 'chunks.end'],
  ['a negative chunks.first', (s) => void (s.chunks.first = -1), 'chunks.first'],
  ['an empty chunk range', (s) => void (s.chunks.end = s.chunks.first), 'chunks.end'],
  ['a fractional chunk', (s) => void (s.chunks.first = 0.5), 'chunks.first'],
  ['threads 0', (s) => void (s.threads = 0), 'threads'],
  ['a tally one short', (s) => void s.tally.pop(), 'tally'],
  ['a negative count', (s) => void (s.tally[0] = -483), 'tally[0]'],
  ['a fractional count', (s) => void (s.tally[0] = 0.5), 'tally[0]'],
  ['a count as text', (s) => void ((s.tally as unknown[])[0] = '12'), 'tally[0]'],
  ['a null count (NaN written as JSON)', (s) => void ((s.tally as unknown[])[0] = null), 'tally[0]'],
  ['a count beyond 2^53', (s) => void (s.tally[0] = 2 ** 60), 'tally[0]'],
  // Every count far above what the shard's trials allow: some proportion exceeds its trials.
  ['every count inflated beyond the trials', (s) => void (s.tally = s.tally.map((x) => x + TRIALS * 1000)), 'tally'],
];

describe.each(rules.map((rule) => rule.id))('merge refuses a forged %s shard', (ruleId) => {
  it('every forgery, one line naming the file and the field, exit 2', async () => {
    const { path, shard } = await realShard(ruleId, 0, 1);
    // The unedited shard merges.
    expect((await cli('merge', path, '--json', join(folder, `${ruleId}-ok.json`))).status).toBe(0);
    for (const [what, edit, field] of FORGERIES) {
      const forged = structuredClone(shard);
      edit(forged);
      const file = join(folder, `${ruleId}-forged.json`);
      writeFileSync(file, JSON.stringify(forged));
      const json = join(folder, `${ruleId}-forged-result.json`);
      const { status, stdout, stderr } = await cli('merge', file, '--json', json);
      expect({ what, status }).toEqual({ what, status: 2 });
      const escaped = field.replace(/[.[\]]/g, '\\$&');
      expect({ what, stderr }).toEqual({
        what,
        stderr: expect.stringMatching(
          new RegExp(`^muster: files: ".*${ruleId}-forged\\.json": ${escaped}[:.[].*; allowed: .+\\n$`),
        ),
      });
      expect(stdout).toBe('');
    }
  });
});

describe('a tally inconsistent with its trials', () => {
  it('reserves: one count moved (26.7% against an exact 16.7% before) breaks the histogram sum', async () => {
    const { path, shard } = await realShard('reserves', 0, 1);
    const forged = structuredClone(shard);
    const index = forged.tally.findIndex((count) => count > 0);
    forged.tally[index] += 10_000;
    writeFileSync(path, JSON.stringify(forged));
    await expect(mergeCommand([path], {}, bufferIo())).rejects.toThrow(
      /^files: ".*": tally: the outcome counts sum to 150000, not the 140000 trials; allowed:/,
    );
  });

  it('deployment: a zone-set count edited', async () => {
    const { path, shard } = await realShard('deployment', 0, 1);
    const forged = structuredClone(shard);
    forged.tally[2] += 1;
    writeFileSync(path, JSON.stringify(forged));
    await expect(mergeCommand([path], {}, bufferIo())).rejects.toThrow(
      /tally: player a's zone-set counts sum to 140001, not the 140000 trials/,
    );
  });

  it("a count checked against the shard's own trials, not the run's: shard 1/2 with the whole run's wins", async () => {
    // Shard 1 of 2 runs chunk 1 and the short chunk 2: 74,464 trials of the 140,000.
    const { path, shard } = await realShard('infinity', 1, 2);
    const forged = structuredClone(shard);
    forged.tally[0] = 100_000; // a.wins: possible in the whole run, not in this shard
    writeFileSync(path, JSON.stringify(forged));
    await expect(mergeCommand([path], {}, bufferIo())).rejects.toThrow(
      /tally: a\.wins: 100000 successes in 74464 trials/,
    );
  });

  it('a mean whose sum of squares is below its sum squared over its trials', async () => {
    const { path, shard } = await realShard('infinity', 0, 1);
    const forged = structuredClone(shard);
    // infinity's rolls (sum, sum of squares) are the tally's entries 4 and 5 (src/rules/infinity/infinity.ts `at`): Σx² <
    // (Σx)²/n is impossible.
    const rolls = validateShard('x', shard).tally;
    forged.tally[5] = Math.floor(rolls[4] / 2);
    writeFileSync(path, JSON.stringify(forged));
    await expect(mergeCommand([path], {}, bufferIo())).rejects.toThrow(
      /tally: rolls\.mean: its sum of squares .* is below its sum/,
    );
  });
});

describe('fast-check: no edit of a shard gets past merge as anything but a UsageError', () => {
  it('seed 10: random JSON values in random fields give a UsageError or a valid shard, never a crash', async () => {
    const { shard } = await realShard('reserves', 0, 1);
    const fields = [...Object.keys(shard), 'chunks.first', 'chunks.end', 'tally.0', 'params.squads', 'extra'];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const forged = structuredClone(shard) as Record<string, unknown>;
        const [head, tail] = field.split('.');
        if (tail === undefined) forged[head] = value;
        else (forged[head] as Record<string, unknown>)[tail] = value;
        try {
          const checked = validateShard('f', forged);
          // Accepted only when the edit left a shard that is still consistent: same length, integer counts.
          expect(checked.tally.every((count) => Number.isSafeInteger(count) && count >= 0)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          // The field named: a known one, or an unknown key quoted.
          expect((error as Error).message).toMatch(/^f: (?:[\w.[\]]+|(?:chunks\.|params\.)?".*"): /);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
      { seed: 10, numRuns: 400 },
    );
  });

  it('seed 11: any negative, fractional or non-finite count is refused', async () => {
    const { shard } = await realShard('noctvale', 0, 1);
    fc.assert(
      fc.property(
        fc.nat({ max: shard.tally.length - 1 }),
        fc.oneof(
          fc.double({ max: -Number.MIN_VALUE }),
          fc.double({ min: 0.0001, max: 1e6 }).filter((x) => !Number.isInteger(x)),
          fc.constant(null),
          fc.string(),
        ),
        (index, value) => {
          const forged = structuredClone(shard) as Shard;
          (forged.tally as unknown[])[index] = value;
          expect(() => validateShard('f', forged)).toThrow(new RegExp(`^f: tally\\[${index}\\]: got `));
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });
});

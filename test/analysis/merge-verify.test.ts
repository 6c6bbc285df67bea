/**
 * `muster merge --verify K`: the field checks catch every shard that is
 * inconsistent in itself, but a hand edit that moves counts between
 * outcomes keeps every sum and passes them. Only a re-run catches it: merge
 * --verify re-runs K shards picked at random and refuses a shard that
 * differs from its re-run by a single count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('verify');
const file = (name: string) => join(folder, name);
const RUN = ['--trials', '300000', '--seed', 'verify', '--threads', '1', '--quiet'];

async function shards(rule: string): Promise<string[]> {
  const files = [file(`${rule}-0.json`), file(`${rule}-1.json`)];
  for (const [index, out] of files.entries()) {
    const { status, stderr } = await cli('shard', rule, ...RUN, '--shard', `${index}/2`, '--out', out);
    expect(status, stderr).toBe(0);
  }
  return files;
}

describe('merge --verify re-runs shards', () => {
  it(
    'seed "verify": infinity with 1,000 wins moved from B to A passes the field checks, and --verify refuses ' + 'it',
    async () => {
      const [first, second] = await shards('infinity');
      const shard = JSON.parse(readFileSync(second, 'utf8')) as { tally: number[] };
      // Tally entries 0 and 1 count A's and B's wins: moving wins keeps a.wins + b.wins = trials, as a real tally must.
      shard.tally[0] += 1000;
      shard.tally[1] -= 1000;
      const forged = file('infinity-1-forged.json');
      writeFileSync(forged, JSON.stringify(shard));

      const unchecked = await cli('merge', first, forged, '--json', '-');
      expect(unchecked.status).toBe(0); // why --verify exists: nothing in the file itself gives it away

      const checked = await cli('merge', first, forged, '--verify', '2', '--json', file('never.json'));
      expect(checked.status).toBe(2);
      // The shards are re-run in a random order: the genuine one may be reported as verified first; the refusal ends it.
      expect(checked.stderr).toMatch(
        /^(verified .*infinity-0\.json: .*\n)?muster: files: ".*infinity-1-forged\.json": tally\[0\]: got \d+, a re-run of its chunks 2–4 gives \d+; allowed: .*\n$/,
      );
      expect(() => readFileSync(file('never.json'))).toThrow();
    },
  );

  it('genuine shards pass --verify and merge to the single run, bit for bit', async () => {
    const files = await shards('reserves');
    const merged = await cli('merge', ...files, '--verify', '2', '--json', '-');
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr.match(/^verified /gm)).toHaveLength(2);
    const whole = await cli('run', 'reserves', ...RUN, '--json', '-');
    expect(JSON.parse(merged.stdout).metrics).toEqual(JSON.parse(whole.stdout).metrics);
  });

  it(
    'seed "verify": a run relabelled in every shard (command=2 claimed as command=3) merges unchecked; --verify 1 ' +
      'refuses it',
    async () => {
      const run = [...RUN, '--set', 'chosenRound=2', '--set', 'command=2'];
      const files = [0, 1].map((index) => file(`relabel-run-${index}.json`));
      for (const [index, out] of files.entries())
        expect((await cli('shard', 'reserves', ...run, '--shard', `${index}/2`, '--out', out)).status).toBe(0);
      const forged = files.map((path, index) => {
        const shard = JSON.parse(readFileSync(path, 'utf8')) as { params: Record<string, unknown> };
        shard.params.command = 3;
        const out = file(`relabel-run-forged-${index}.json`);
        writeFileSync(out, JSON.stringify(shard));
        return out;
      });
      expect((await cli('merge', ...forged, '--json', file('never-run.json'))).status).toBe(0);
      const checked = await cli('merge', ...forged, '--verify', '1', '--json', file('never-run-verified.json'));
      expect([checked.status, checked.stderr]).toEqual([
        2,
        expect.stringMatching(
          /^muster: files: ".*relabel-run-forged-[01]\.json": tally\[\d+\]: got \d+, a re-run of its chunks/,
        ),
      ]);
      expect(() => readFileSync(file('never-run-verified.json'))).toThrow();
    },
  );

  it('refuses a --verify count above the shards given', async () => {
    const files = await shards('noctvale');
    const { status, stderr } = await cli('merge', ...files, '--verify', '3');
    expect([status, stderr]).toEqual([2, 'muster: --verify: got "3"; allowed: an integer from 0 to 2\n']);
  });
});

/**
 * Sweeps and comparisons: before, `merge` of their shards had no --verify,
 * and a consistent forgery merged. The relabelling: every shard's options
 * edited from command=2 to command=3, so merge plans command 3 and reports
 * command 2's counts under its name; every count is one the rule could make,
 * so only a re-run of what the shards claim catches it.
 */
describe('merge --verify re-runs the pieces of sweep and comparison shards', () => {
  // The command bonus counts in the chosen round only: with chosenRound=2 a squad needs 5 − command on 1d6 there,
  // so commands 0 to 3 are four different runs (from 4 up every squad arrives in round 2, and relabelling is honest).
  const SWEEP = [
    'sweep',
    'reserves',
    '--set',
    'chosenRound=2',
    '--vary',
    'command=2..3',
    '--trials',
    '140k',
    '--seed',
    'relabel',
    '--threads',
    '1',
    '--quiet',
  ];
  const COMPARE = [
    'compare',
    'reserves',
    '--set',
    'chosenRound=2',
    '--variant',
    'A: command=2',
    '--variant',
    'B: command=1',
    '--trials',
    '140k',
    '--seed',
    'relabel',
    '--threads',
    '1',
    '--quiet',
  ];
  type Grid = { args: Record<string, string[]>; pieces: Array<{ point: number; tally: number[] }> } & Record<
    string,
    unknown
  >;

  async function gridShards(argv: string[], name: string): Promise<string[]> {
    const files = [0, 1].map((index) => file(`${name}-${index}.tally`));
    for (const [index, out] of files.entries()) {
      const { status, stderr } = await cli(...argv, '--shard', `${index}/2`, '--out', out);
      expect(status, stderr).toBe(0);
    }
    return files;
  }

  /** Every shard rewritten by `edit`, as a forger would do consistently. */
  function forge(files: string[], name: string, edit: (shard: Grid) => void): string[] {
    return files.map((path, index) => {
      const shard = JSON.parse(readFileSync(path, 'utf8')) as Grid;
      edit(shard);
      const forged = file(`${name}-forged-${index}.tally`);
      writeFileSync(forged, JSON.stringify(shard));
      return forged;
    });
  }

  it(
    'seed "relabel": genuine sweep shards pass --verify of every piece and merge to the sweep on one ' + 'machine',
    async () => {
      const files = await gridShards(SWEEP, 'sweep');
      // 2 points of 3 chunks over 2 shards: shard 0 holds point 1's chunks 0–2, shard 1 point 2's: 2 pieces.
      const merged = await cli('merge', ...files, '--verify', '2', '--json', file('sweep-verified.json'));
      expect(merged.status, merged.stderr).toBe(0);
      expect(
        merged.stderr.match(/^verified .*: a re-run of point \d, chunks 0–2 gives the same tally$/gm),
      ).toHaveLength(2);
      const whole = SWEEP.map((arg, i) => (SWEEP[i - 1] === '--threads' ? '2' : arg));
      expect((await cli(...whole, '--json', file('sweep-whole.json'))).status).toBe(0);
      expect(readFileSync(file('sweep-verified.json'), 'utf8')).toBe(readFileSync(file('sweep-whole.json'), 'utf8'));
      const tooMany = await cli('merge', ...files, '--verify', '3');
      expect([tooMany.status, tooMany.stderr]).toEqual([
        2,
        'muster: --verify: got "3"; allowed: an integer from 0 to 2\n',
      ]);
    },
  );

  it('seed "relabel": forgeries that pass every field check are refused by --verify', async () => {
    const sweep = [file('sweep-0.tally'), file('sweep-1.tally')];
    const compare = await gridShards(COMPARE, 'compare');
    const forgeries: Array<[string, string[], RegExp]> = [
      // command=2..3 relabelled 3..4: both points carry another command's counts, so any one piece re-run finds it.
      [
        'sweep relabelled',
        forge(sweep, 'relabel', (s) => void (s.args.vary = ['command=3..4'])),
        /point [12], chunks 0–2: tally\[\d+\]: got \d+, a re-run of the point its options describe gives \d+/,
      ],
      [
        'comparison relabelled',
        forge(compare, 'variants', (s) => void (s.args.variant = ['A: command=3', 'B: command=0'])),
        /variant [12], chunks 0–2: tally\[\d+\]: got \d+, a re-run .* gives \d+/,
      ],
      [
        '--set added to every shard',
        forge(sweep, 'set', (s) => void s.args.set.push('target=6')),
        /point [12], chunks 0–2: tally\[\d+\]: got \d+, a re-run .* gives \d+/,
      ],
    ];
    for (const [what, files, message] of forgeries) {
      const unchecked = await cli('merge', ...files, '--json', file('never.json'));
      expect(unchecked.status, `${what}: merges without --verify`).toBe(0); // nothing in the files gives it away
      const checked = await cli('merge', ...files, '--verify', '1', '--json', file('never-verified.json'));
      expect(checked.status, what).toBe(2);
      expect(checked.stderr, what).toMatch(
        new RegExp(
          `^muster: files: ".*-forged-[01]\\.tally": ${message.source}; allowed: the tally muster (sweep|compare) ` +
            `--shard computes`,
        ),
      );
      expect(checked.stderr.split('\n'), what).toHaveLength(2);
    }
    expect(() => readFileSync(file('never-verified.json'))).toThrow();
  });

  it(
    'seed "relabel": counts moved between outcomes of one piece: --verify of every piece finds the ' + 'shard',
    async () => {
      const sweep = [file('sweep-0.tally'), file('sweep-1.tally')];
      const [genuine] = sweep;
      const [, forged] = forge(sweep, 'moved', (s) => {
        // Reserves' histogram of arrivals: a count moved from one outcome to a neighbour keeps its sum, as a real tally
        // must.
        const tally = s.pieces[0].tally;
        const from = tally.findIndex((count) => count > 10);
        tally[from] -= 10;
        tally[from + 1] += 10;
      });
      expect((await cli('merge', genuine, forged, '--json', file('never.json'))).status).toBe(0);
      const checked = await cli('merge', genuine, forged, '--verify', '2', '--json', file('never-moved.json'));
      expect(checked.status).toBe(2);
      expect(checked.stderr).toMatch(
        /^(verified .*sweep-0\.tally: .*\n)?muster: files: ".*moved-forged-1\.tally": point 2, chunks 0–2: tally\[\d+\]: got \d+, a re-run .* gives \d+; allowed: /,
      );
      expect(() => readFileSync(file('never-moved.json'))).toThrow();
    },
  );
});

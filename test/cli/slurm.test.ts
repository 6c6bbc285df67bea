/**
 * docs/cluster.md's sbatch scripts on a real Slurm: Debian's slurm-wlm and
 * munge as a one-node cluster (scripts/slurm-one-node.sh), the array
 * submitted as written, one task requeued mid-run with `scontrol requeue`,
 * merge.sbatch waiting on the array with --dependency=afterok, and the merged
 * sweep checked byte for byte against the sweep on one machine.
 * test/cli/cluster.test.ts imitates Slurm's environment with local processes;
 * this is the scheduler itself, so what it adds is Slurm's own behaviour:
 * its array variables, --export=ALL, the requeue and the dependency.
 *
 * Scaled to this machine, neither of which can change a number: TRIALS is
 * small, and --cpus-per-task=1 on the sbatch command line (which overrides
 * the script's #SBATCH line) lets two tasks run side by side on two cores.
 */
import { type ExecFileSyncOptionsWithStringEncoding, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const script = fileURLToPath(new URL('../../scripts/slurm-one-node.sh', import.meta.url));
const muster = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const doc = readFileSync(fileURLToPath(new URL('../../docs/cluster.md', import.meta.url)), 'utf8');
/** Per point: a task's quarter of the 25 points then runs past its first checkpoint write (after 5 s). */
const TRIALS = '60M';
const CPUS_PER_TASK = 1;
/** Every wait is bounded; the whole test stays well inside vitest's limit below. */
const TEST_LIMIT_MS = 240_000;

const installed = ['slurmctld', 'slurmd', 'sbatch', 'munged'].every((name) =>
  ['/usr/sbin', '/usr/bin'].some((dir) => existsSync(join(dir, name))),
);
/** Why the test cannot run here, or '' (in CI it runs, and fails when Slurm is missing or will not start). */
const skip =
  process.platform !== 'linux'
    ? 'Slurm’s daemons run on Linux'
    : process.getuid?.() !== 0
      ? 'the one-node cluster runs slurmctld and slurmd as root'
      : !installed && !process.env.CI
        ? 'Slurm is not installed (apt-get install -y slurm-wlm munge; .ci/run does)'
        : '';

/** The fenced block after `<!-- file: NAME -->` in docs/cluster.md. */
function docFile(name: string): string {
  const match = new RegExp(`<!-- file: ${name.replace('.', '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/cluster.md has no block for ${name}`);
  return match[1];
}

/** `sbatch --parsable` prints `id` or `id;cluster`. */
const jobId = (parsable: string) => parsable.trim().split(';')[0];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skip !== '')(`docs/cluster.md on a real one-node Slurm${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const folder = scratchFolder('slurm-jobs');
  const work = join(folder, 'work');
  const bin = join(folder, 'bin');
  let slurmConf = '';
  let startedHere = false;
  const submitted: string[] = [];

  /** Runs a Slurm client in the environment a user who ran `npm link` submits from. */
  function slurm(command: string, ...args: string[]): string {
    return execFileSync(command, args, {
      cwd: work,
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      // sbatch's --export=ALL (the default) hands this to every task: the PATH with `muster`, and TRIALS.
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: folder, LANG: 'C.UTF-8', SLURM_CONF: slurmConf, TRIALS },
    });
  }

  /** `scontrol show job`'s records (one per array task once it has started), as key=value maps. */
  function jobs(id: string): Map<string, string>[] {
    return slurm('scontrol', '--oneliner', 'show', 'job', id)
      .split('\n')
      .filter((line) => line.startsWith('JobId='))
      .map(
        (line) =>
          new Map(
            line.split(' ').map((field) => {
              const equals = field.indexOf('=');
              return [field.slice(0, equals), field.slice(equals + 1)];
            }),
          ),
      );
  }

  function logs(): string {
    const each = 'for f in *.log; do [ -e "$f" ] && echo "== $f" && cat "$f"; done; true';
    return execFileSync('sh', ['-c', each], { cwd: work, encoding: 'utf8' });
  }

  /** When waiting gives up: before vitest's own limit, so that the failure shows Slurm's queue and the task logs. */
  let deadline = 0;

  /** Polls `until` until it returns a value; a job that ended other than COMPLETED fails at once. */
  async function waitFor<T>(what: string, until: () => T | undefined): Promise<T> {
    for (;;) {
      const done = until();
      if (done !== undefined) return done;
      if (Date.now() > deadline) throw new Error(`Slurm: still no ${what}\n${slurm('squeue')}\n${logs()}`);
      await sleep(250);
    }
  }

  const ENDED = /^(FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)/;
  function expectNoFailure(records: Map<string, string>[]): void {
    for (const job of records) {
      const state = job.get('JobState') ?? '';
      if (ENDED.test(state) || job.get('Reason') === 'DependencyNeverSatisfied') {
        const name = `${job.get('JobId')} (${job.get('JobName')})`;
        throw new Error(`Slurm job ${name}: ${state}, ${job.get('Reason')}\n${logs()}`);
      }
    }
  }

  /** Starts the cluster unless it is up already (then it is left up afterwards, as found). */
  function startCluster(): void {
    try {
      execFileSync(script, ['status'], { stdio: 'ignore', timeout: 20_000 });
    } catch {
      startedHere = true;
    }
    try {
      const options: ExecFileSyncOptionsWithStringEncoding = {
        encoding: 'utf8',
        timeout: 90_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      };
      slurmConf = execFileSync(script, ['start'], options).trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new Error(`scripts/slurm-one-node.sh start failed: ${stderr.trim()}`);
    }
  }

  beforeAll(() => {
    mkdirSync(work, { recursive: true });
    mkdirSync(bin, { recursive: true });
    // The `muster` that `npm link` puts on a user's PATH.
    writeFileSync(join(bin, 'muster'), `#!/bin/sh\nexec "${process.execPath}" "${muster}" "$@"\n`);
    chmodSync(join(bin, 'muster'), 0o755);
  });

  afterAll(() => {
    if (slurmConf && submitted.length > 0) {
      try {
        slurm('scancel', ...submitted);
      } catch {
        // Jobs that have finished are already gone from scancel's view.
      }
    }
    if (startedHere) execFileSync(script, ['stop'], { stdio: 'ignore', timeout: 60_000 });
  }, 90_000);

  it(
    'sweep.sbatch as an array with one task requeued mid-run, then merge.sbatch after it: the sweep on one machine',
    async () => {
      // Here rather than in a hook, so that in CI a Slurm that will not start is a failed test, not a skipped one.
      startCluster();
      deadline = Date.now() + TEST_LIMIT_MS - 20_000;
      const sweep = docFile('sweep.sbatch');
      writeFileSync(join(work, 'sweep.sbatch'), sweep);
      writeFileSync(join(work, 'merge.sbatch'), docFile('merge.sbatch'));
      const array = /^#SBATCH --array=(\d+)-(\d+)$/m.exec(sweep);
      expect(array, 'the script declares its --array').not.toBeNull();
      const taskIds: string[] = [];
      for (let id = Number(array?.[1]); id <= Number(array?.[2]); id++) taskIds.push(String(id));

      // The same sweep on one machine, from the arguments the tasks ran with; `threads` is the tasks' threads added up.
      // It runs alongside Slurm, filling the cores while tasks wait: for a core, out the requeue's 10 s, for the merge.
      const line = /^muster sweep[\s\S]*?--quiet$/m.exec(sweep)?.[0] ?? '';
      const args = line
        .replace(/\\\n\s*/g, ' ')
        .replace('"${TRIALS:-100M}"', TRIALS)
        .replace('"$SLURM_CPUS_PER_TASK"', String(CPUS_PER_TASK))
        .split(/\s+/)
        .slice(1)
        .map((arg) => arg.replace(/^'(.*)'$/, '$1'));
      const kept: string[] = [];
      for (let i = 0; i < args.length; i++) {
        if (['--shard', '--out', '--checkpoint', '--threads'].includes(args[i])) i++;
        else kept.push(args[i]);
      }
      const whole = join(folder, 'whole');
      mkdirSync(whole);
      const threads = String(taskIds.length * CPUS_PER_TASK);
      const outputs = ['json', 'csv', 'html'].flatMap((kind) => [`--${kind}`, join(whole, `sweep.${kind}`)]);
      const wholeSweep = cli(...kept, '--threads', threads, ...outputs);

      // As the doc submits them: the merge waits on the array's id from `sbatch --parsable`.
      const arrayJob = jobId(slurm('sbatch', '--parsable', `--cpus-per-task=${CPUS_PER_TASK}`, 'sweep.sbatch'));
      submitted.push(arrayJob);
      const mergeJob = jobId(slurm('sbatch', '--parsable', `--dependency=afterok:${arrayJob}`, 'merge.sbatch'));
      submitted.push(mergeJob);

      // A task mid-run: running, with a checkpoint that holds some of its chunks but not all.
      const requeued = await waitFor('running task with a partial checkpoint', () => {
        const records = jobs(arrayJob);
        expectNoFailure(records);
        if (records.every((job) => job.get('JobState') === 'COMPLETED')) {
          throw new Error(`every task ended before one could be requeued mid-run: raise TRIALS (${TRIALS})\n${logs()}`);
        }
        for (const job of records) {
          if (job.get('JobState') !== 'RUNNING') continue;
          const checkpoint = join(work, 'shards', `shard-${job.get('ArrayTaskId')}.ckpt`);
          if (!existsSync(checkpoint)) continue;
          const saved = JSON.parse(readFileSync(checkpoint, 'utf8')) as {
            job: { pieces: { first: number; end: number }[] };
            ranges: { first: number; end: number }[];
          };
          const chunks = (pieces: { first: number; end: number }[]) =>
            pieces.reduce((sum, piece) => sum + piece.end - piece.first, 0);
          const [done, all] = [chunks(saved.ranges), chunks(saved.job.pieces)];
          if (done > 0 && done < all) return job.get('ArrayTaskId') ?? '';
        }
        return undefined;
      });
      slurm('scontrol', 'requeue', `${arrayJob}_${requeued}`);
      // Killed before its first run ended: back in the queue (for the credential's 10 s at least), no shard written.
      await waitFor(`task ${requeued} back in the queue`, () => {
        const [task] = jobs(`${arrayJob}_${requeued}`);
        return task.get('JobState') === 'PENDING' ? task : undefined;
      });
      const shard = join(work, 'shards', `shard-${requeued}.json`);
      expect(existsSync(shard), 'the requeued task had not finished').toBe(false);

      const finished = await waitFor('end of every array task', () => {
        const records = jobs(arrayJob);
        expectNoFailure(records);
        const tasks = records.filter((job) => job.get('JobState') === 'COMPLETED');
        return tasks.length === taskIds.length ? tasks : undefined;
      });
      expect(finished.map((job) => job.get('ArrayTaskId')).sort()).toEqual(taskIds);
      for (const job of finished) expect(job.get('ExitCode'), `task ${job.get('ArrayTaskId')}`).toBe('0:0');
      const restarts = Object.fromEntries(finished.map((job) => [job.get('ArrayTaskId'), job.get('Restarts')]));
      expect(restarts).toEqual(Object.fromEntries(taskIds.map((id) => [id, id === requeued ? '1' : '0'])));

      await waitFor('end of the merge job', () => {
        const [merge] = jobs(mergeJob);
        expectNoFailure([merge]);
        return merge.get('JobState') === 'COMPLETED' ? merge : undefined;
      });

      const result = await wholeSweep;
      expect(result.status, result.stderr).toBe(0);
      for (const name of ['sweep.json', 'sweep.csv', 'sweep.html']) {
        expect(readFileSync(join(work, name), 'utf8'), name).toBe(readFileSync(join(whole, name), 'utf8'));
      }
    },
    TEST_LIMIT_MS,
  );
});

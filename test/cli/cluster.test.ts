/**
 * docs/cluster.md's Slurm script and Kubernetes manifests, run as written:
 * each shard a local process with the environment its scheduler sets, then
 * the merge step, checked byte for byte against the sweep on one machine.
 * Two things differ from a real cluster, neither of which can change a
 * number: TRIALS is small, and Slurm's SLURM_CPUS_PER_TASK is 1 on this
 * two-core machine (a Kubernetes pod uses every core it sees).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('cluster');
const doc = readFileSync(fileURLToPath(new URL('../../docs/cluster.md', import.meta.url)), 'utf8');
const muster = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const TRIALS = '70k';

/** The fenced block after `<!-- file: NAME -->` in docs/cluster.md. */
function docFile(name: string): string {
  const match = new RegExp(`<!-- file: ${name.replaceAll('.', '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/cluster.md has no block for ${name}`);
  return match[1];
}

/**
 * A folder with a `muster` command on the PATH, as `npm link` gives a user (made once: processes run it side by side).
 */
const bin = join(folder, 'bin');
mkdirSync(bin, { recursive: true });
writeFileSync(join(bin, 'muster'), `#!/bin/sh\nexec "${process.execPath}" "${muster}" "$@"\n`);
chmodSync(join(bin, 'muster'), 0o755);

/** Runs one task or pod's command to the end; the tasks of an array run side by side, as on a cluster. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: folder, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  expect(status, `${command} ${args.join(' ')}\n${stderr}`).toBe(0);
}

/** The same sweep on one machine, from the arguments the shards ran with. */
async function wholeSweep(args: string[], threads: number, out: string): Promise<void> {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (['--shard', '--shards', '--out', '--checkpoint', '--threads'].includes(args[i])) i++;
    else kept.push(args[i]);
  }
  const result = await cli(
    ...kept,
    '--threads',
    String(threads),
    '--json',
    join(out, 'sweep.json'),
    '--csv',
    join(out, 'sweep.csv'),
    '--html',
    join(out, 'sweep.html'),
  );
  expect(result.status, result.stderr).toBe(0);
}

function expectSameFiles(a: string, b: string): void {
  for (const name of ['sweep.json', 'sweep.csv', 'sweep.html'])
    expect(readFileSync(join(a, name), 'utf8'), name).toBe(readFileSync(join(b, name), 'utf8'));
}

describe('docs/cluster.md, run as local processes', () => {
  it(
    'Slurm: the sbatch array script, one process per task with Slurm’s array variables, then ' + 'merge.sbatch',
    async () => {
      const work = join(folder, 'slurm');
      mkdirSync(work, { recursive: true });
      const script = docFile('sweep.sbatch');
      writeFileSync(join(work, 'sweep.sbatch'), script);
      writeFileSync(join(work, 'merge.sbatch'), docFile('merge.sbatch'));
      const array = /^#SBATCH --array=(\d+)-(\d+)(?::(\d+))?$/m.exec(script);
      expect(array, 'the script declares its --array').not.toBeNull();
      const [min, max, step] = [Number(array?.[1]), Number(array?.[2]), Number(array?.[3] ?? 1)];
      const ids: number[] = [];
      for (let id = min; id <= max; id += step) ids.push(id);
      // What Slurm sets in each array task (sbatch(1), "OUTPUT ENVIRONMENT VARIABLES").
      const task = (id: number) =>
        run('bash', ['sweep.sbatch'], work, {
          SLURM_JOB_ID: String(4200 + id),
          SLURM_ARRAY_JOB_ID: '4200',
          SLURM_ARRAY_TASK_ID: String(id),
          SLURM_ARRAY_TASK_MIN: String(min),
          SLURM_ARRAY_TASK_MAX: String(max),
          SLURM_ARRAY_TASK_STEP: String(step),
          SLURM_ARRAY_TASK_COUNT: String(ids.length),
          SLURM_CPUS_PER_TASK: '1',
          TRIALS,
        });
      await Promise.all(ids.map(task));
      await run('bash', ['merge.sbatch'], work, { SLURM_JOB_ID: '4300' });

      const line = /^muster sweep[\s\S]*?--quiet$/m.exec(script)?.[0] ?? '';
      const args = line
        .replace(/\\\n\s*/g, ' ')
        .replace('"${TRIALS:-100M}"', TRIALS)
        .replace('"$SLURM_CPUS_PER_TASK"', '1')
        .split(/\s+/)
        .slice(1)
        .map((arg) => arg.replace(/^'(.*)'$/, '$1'));
      const whole = join(folder, 'slurm-whole');
      mkdirSync(whole);
      await wholeSweep(args, ids.length, whole);
      expectSameFiles(work, whole);
    },
  );

  it('Kubernetes: the Indexed Job’s command, one process per JOB_COMPLETION_INDEX, then the merge Job', async () => {
    const work = join(folder, 'kubernetes');
    mkdirSync(work, { recursive: true });
    const job = docFile('sweep-job.yaml');
    const completions = Number(/^\s*completions: (\d+)$/m.exec(job)?.[1]);
    const command = (manifest: string) =>
      (JSON.parse(/^\s*command: (\[.*\])$/m.exec(manifest)?.[1] ?? '[]') as string[]).map((arg) =>
        arg.replaceAll('/results', work),
      );
    const shardCommand = command(job);
    expect(shardCommand[2]).toContain(`--shards ${completions} `);
    // Kubernetes sets JOB_COMPLETION_INDEX in every pod of an Indexed Job; TRIALS comes from the manifest's env.
    await Promise.all(
      Array.from({ length: completions }, (_, index) =>
        run(shardCommand[0], shardCommand.slice(1), work, { JOB_COMPLETION_INDEX: String(index), TRIALS }),
      ),
    );
    const merge = command(docFile('merge-job.yaml'));
    await run(merge[0], merge.slice(1), work, {});

    const args = shardCommand[2]
      .replace('"$TRIALS"', TRIALS)
      .split(/\s+/)
      .slice(1)
      .map((arg) => arg.replace(/^'(.*)'$/, '$1'));
    const whole = join(folder, 'kubernetes-whole');
    mkdirSync(whole);
    await wholeSweep(args, completions * availableParallelism(), whole);
    expectSameFiles(work, whole);
  });

  /**
   * The sweep's arguments from a shard command line (after `muster`), with TRIALS filled in and shell quotes dropped.
   */
  const sweepArgs = (line: string) =>
    line
      .replace(/\\\n\s*/g, ' ')
      .replace(/"\$TRIALS"|"\$\{TRIALS:-100M\}"/, TRIALS)
      .trim()
      .split(/\s+/)
      .slice(1)
      .map((arg) => arg.replace(/^"?'(.*)'"?$/, '$1'));

  /**
   * An array of `count` tasks running `shard` (an argv, /results standing for the shared folder) side by side,
   * each with the environment its scheduler sets for task `i`, then the standard merge; the result against one machine.
   */
  async function expectArrayMatchesOneMachine(
    name: string,
    shard: string[],
    count: number,
    envOf: (i: number) => Record<string, string>,
    threadsEach: number,
  ) {
    const work = join(folder, name);
    mkdirSync(work, { recursive: true });
    const argv = shard.map((arg) => arg.replaceAll('/results', work));
    await Promise.all(
      Array.from({ length: count }, (_, i) => run(argv[0], argv.slice(1), work, { ...envOf(i), TRIALS })),
    );
    await run(
      'sh',
      [
        '-c',
        `muster merge ${work}/shard-*.json --json ${work}/sweep.json --csv ${work}/sweep.csv --html ` +
          `${work}/sweep.html --quiet`,
      ],
      work,
      {},
    );
    const whole = join(folder, `${name}-whole`);
    mkdirSync(whole);
    await wholeSweep(sweepArgs(shard[2]), count * threadsEach, whole);
    expectSameFiles(work, whole);
  }

  it(
    'AWS Batch: the job definition’s command, one process per AWS_BATCH_JOB_ARRAY_INDEX of the submitted size, ' +
      'then its merge',
    async () => {
      const definition = JSON.parse(docFile('batch-job.json')) as {
        containerProperties: { command: string[]; environment: Array<{ name: string; value: string }> };
      };
      const size = Number(/--array-properties size=(\d+)/.exec(doc)?.[1]);
      const command = definition.containerProperties.command;
      expect(command[2]).toContain(`--shards ${size} `);
      expect(definition.containerProperties.environment).toContainEqual({ name: 'TRIALS', value: '100M' });
      // AWS Batch sets the index (not the size) in every child of an array job.
      await expectArrayMatchesOneMachine(
        'aws-batch',
        command,
        size,
        (i) => ({ AWS_BATCH_JOB_ARRAY_INDEX: String(i), AWS_BATCH_JOB_ID: `abc:${i}` }),
        availableParallelism(),
      );
      const merge = JSON.parse(/command=(\[.*\])'/.exec(doc)?.[1] ?? '[]') as string[];
      expect(merge.slice(0, 2)).toEqual(['sh', '-c']);
      expect(merge[2]).toMatch(/^muster merge \/results\/shard-\*\.json /);
    },
  );

  it('Cloud Run: the job’s command, one process per CLOUD_RUN_TASK_INDEX of CLOUD_RUN_TASK_COUNT', async () => {
    const job = docFile('cloud-run-job.yaml');
    const tasks = Number(/^\s*taskCount: (\d+)$/m.exec(job)?.[1]);
    const command = JSON.parse(/^\s*command: (\[.*\])$/m.exec(job)?.[1] ?? '[]') as string[];
    expect(command[2]).not.toContain('--shards');
    await expectArrayMatchesOneMachine(
      'cloud-run',
      command,
      tasks,
      (i) => ({ CLOUD_RUN_TASK_INDEX: String(i), CLOUD_RUN_TASK_COUNT: String(tasks), CLOUD_RUN_TASK_ATTEMPT: '0' }),
      availableParallelism(),
    );
  });

  it('LSF: sweep.lsf once per array element, LSB_JOBINDEX from 1 to the #BSUB -J range, then merge.lsf', async () => {
    const work = join(folder, 'lsf');
    mkdirSync(work, { recursive: true });
    const script = docFile('sweep.lsf');
    writeFileSync(join(work, 'sweep.lsf'), script);
    writeFileSync(join(work, 'merge.lsf'), docFile('merge.lsf'));
    const range = /^#BSUB -J "[\w-]+\[(\d+)-(\d+)\]"$/m.exec(script);
    expect(range?.[1], 'the array starts at 1').toBe('1');
    const end = Number(range?.[2]);
    // What LSF sets in each element of a job array (LSB_JOBINDEX, _END, _STEP).
    await Promise.all(
      Array.from({ length: end }, (_, i) =>
        run('bash', ['sweep.lsf'], work, {
          LSB_JOBID: '77',
          LSB_JOBINDEX: String(i + 1),
          LSB_JOBINDEX_END: String(end),
          LSB_JOBINDEX_STEP: '1',
          TRIALS,
        }),
      ),
    );
    await run('bash', ['merge.lsf'], work, { LSB_JOBID: '78', LSB_JOBINDEX: '0' });
    const whole = join(folder, 'lsf-whole');
    mkdirSync(whole);
    await wholeSweep(
      sweepArgs(/^muster sweep[\s\S]*?--quiet$/m.exec(script)?.[0] ?? ''),
      end * availableParallelism(),
      whole,
    );
    expectSameFiles(join(work), whole);
  });

  it('Nomad: the task’s args, one allocation per NOMAD_ALLOC_INDEX of the group’s count', async () => {
    const job = docFile('sweep.nomad.hcl');
    const count = Number(/^\s*count = (\d+)$/m.exec(job)?.[1]);
    const command = /^\s*command = "(\w+)"$/m.exec(job)?.[1] ?? '';
    const args = JSON.parse(/^\s*args\s*= (\[.*\])$/m.exec(job)?.[1] ?? '[]') as string[];
    expect(args[1]).toContain(`--shards ${count} `);
    await expectArrayMatchesOneMachine(
      'nomad',
      [command, ...args],
      count,
      (i) => ({ NOMAD_ALLOC_INDEX: String(i), NOMAD_JOB_NAME: 'muster-sweep' }),
      availableParallelism(),
    );
  });

  const parallel = spawnSync('parallel', ['--version'], { encoding: 'utf8' });
  it.skipIf(parallel.status !== 0 && !process.env.CI)(
    'GNU parallel: parallel.sh as written, with GNU parallel itself',
    async () => {
      const work = join(folder, 'parallel');
      mkdirSync(work, { recursive: true });
      const script = docFile('parallel.sh');
      writeFileSync(join(work, 'parallel.sh'), script);
      await run('bash', ['parallel.sh'], work, { TRIALS });
      const jobs = Number(/^seq (\d+) \| parallel/m.exec(script)?.[1]);
      const line = /^\s*muster sweep[\s\S]*?--quiet$/m.exec(script)?.[0] ?? '';
      const whole = join(folder, 'parallel-whole');
      mkdirSync(whole);
      await wholeSweep(sweepArgs(line), jobs, whole);
      expectSameFiles(work, whole);
    },
  );
});

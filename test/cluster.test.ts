/**
 * docs/cluster.md's Slurm script and Kubernetes manifests, run as written:
 * each shard a local process with the environment its scheduler sets, then
 * the merge step, checked byte for byte against the sweep on one machine.
 * Two things differ from a real cluster, neither of which can change a
 * number: TRIALS is small, and Slurm's SLURM_CPUS_PER_TASK is 1 on this
 * two-core machine (a Kubernetes pod uses every core it sees).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from './support/cli.js';

const folder = scratchFolder('cluster');
const doc = readFileSync(fileURLToPath(new URL('../docs/cluster.md', import.meta.url)), 'utf8');
const muster = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TRIALS = '70k';

/** The fenced block after `<!-- file: NAME -->` in docs/cluster.md. */
function docFile(name: string): string {
  const match = new RegExp(`<!-- file: ${name.replace('.', '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/cluster.md has no block for ${name}`);
  return match[1];
}

/** A folder with a `muster` command on the PATH, as `npm link` gives a user (made once: processes run it side by side). */
const bin = join(folder, 'bin');
mkdirSync(bin, { recursive: true });
writeFileSync(join(bin, 'muster'), `#!/bin/sh\nexec "${process.execPath}" "${muster}" "$@"\n`);
chmodSync(join(bin, 'muster'), 0o755);

/** Runs one task or pod's command to the end; the tasks of an array run side by side, as on a cluster. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const child = spawn(command, args, { cwd, env: { PATH: `${bin}:${process.env.PATH}`, HOME: folder, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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
  const result = await cli(...kept, '--threads', String(threads), '--json', join(out, 'sweep.json'), '--csv', join(out, 'sweep.csv'), '--html', join(out, 'sweep.html'));
  expect(result.status, result.stderr).toBe(0);
}

function expectSameFiles(a: string, b: string): void {
  for (const name of ['sweep.json', 'sweep.csv', 'sweep.html']) expect(readFileSync(join(a, name), 'utf8'), name).toBe(readFileSync(join(b, name), 'utf8'));
}

describe('docs/cluster.md, run as local processes', () => {
  it('Slurm: the sbatch array script, one process per task with Slurm’s array variables, then merge.sbatch', async () => {
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
  });

  it('Kubernetes: the Indexed Job’s command, one process per JOB_COMPLETION_INDEX, then the merge Job', async () => {
    const work = join(folder, 'kubernetes');
    mkdirSync(work, { recursive: true });
    const job = docFile('sweep-job.yaml');
    const completions = Number(/^\s*completions: (\d+)$/m.exec(job)?.[1]);
    const command = (manifest: string) => (JSON.parse(/^\s*command: (\[.*\])$/m.exec(manifest)?.[1] ?? '[]') as string[]).map((arg) => arg.replaceAll('/results', work));
    const shardCommand = command(job);
    expect(shardCommand[2]).toContain(`--shards ${completions} `);
    // Kubernetes sets JOB_COMPLETION_INDEX in every pod of an Indexed Job; TRIALS comes from the manifest's env.
    await Promise.all(Array.from({ length: completions }, (_, index) => run(shardCommand[0], shardCommand.slice(1), work, { JOB_COMPLETION_INDEX: String(index), TRIALS })));
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
});

/**
 * Which shard this process is: from `--shard i/n`, or from the environment
 * a scheduler's array job sets (`--shard auto`, or no --shard when a
 * scheduler's array index is present).
 *
 * - Slurm (`sbatch --array=a-b[:step]`): SLURM_ARRAY_TASK_ID with
 *   SLURM_ARRAY_TASK_MIN/MAX and SLURM_ARRAY_TASK_STEP, or
 *   SLURM_ARRAY_TASK_COUNT. Task ids need not start at 0 and may step:
 *   the shard index is (id − min) / step and the count (max − min) / step + 1.
 * - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (0 … completions − 1);
 *   Kubernetes does not export the completion count, so it comes from
 *   `--shards N`, which must equal the Job's `completions`.
 * - AWS Batch array jobs: AWS_BATCH_JOB_ARRAY_INDEX (0 … size − 1), the
 *   count from AWS_BATCH_JOB_ARRAY_SIZE where set, else `--shards`.
 * - Google Cloud Run jobs: CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT.
 * - LSF job arrays (`bsub -J "name[1-N:s]"`): LSB_JOBINDEX, which LSF sets to
 *   0 outside an array; indices start at 1, so the shard index is
 *   (LSB_JOBINDEX − 1) / step, the count from LSB_JOBINDEX_END (with
 *   LSB_JOBINDEX_STEP) or `--shards`. LSF does not export an array's first
 *   index, so the array must start at 1.
 * - Nomad (a group's `count`): NOMAD_ALLOC_INDEX with `--shards`.
 * - GNU parallel: PARALLEL_SEQ (1, 2, …) with `--shards`.
 *
 * Nomad and GNU parallel set their variable in every job, arrays or not,
 * so they are read only under `--shard auto`; the others mean an array job
 * and are read without it too. Two schedulers' indices at once, or anything
 * missing or inconsistent, is a UsageError: a shard that guessed its place
 * would merge into a wrong or incomplete result.
 */
import { badValue, UsageError } from '../errors.js';

/** Shards a run may be split into (muster shard --shard i/n). */
export const MAX_SHARDS = 10_000;

type ShardSource = 'option' | 'slurm' | 'kubernetes' | 'aws-batch' | 'cloud-run' | 'lsf' | 'nomad' | 'gnu-parallel';

export interface ShardPlace {
  index: number;
  count: number;
  /** Where the place came from, for the progress line. */
  source: ShardSource;
}

type Env = Readonly<Record<string, string | undefined>>;

const SLURM_ID = 'SLURM_ARRAY_TASK_ID';
const K8S_INDEX = 'JOB_COMPLETION_INDEX';

/** A scheduler whose array index muster reads: the variable that names it, and how its place is found. */
interface Scheduler {
  source: Exclude<ShardSource, 'option'>;
  /** What the scheduler is called in messages. */
  title: string;
  /** The variable whose presence says this process is one of its array's tasks. */
  variable: string;
  /** True when the variable is set in every job of this scheduler, array or not: read only under --shard auto. */
  everyJob: boolean;
  /** True when the variable is set but says "not an array" (LSF's 0). */
  notAnArray?: (env: Env) => boolean;
  place(env: Env, shards: string | undefined): ShardPlace;
}

const SCHEDULERS: readonly Scheduler[] = [
  { source: 'slurm', title: 'a Slurm array job', variable: SLURM_ID, everyJob: false, place: fromSlurm },
  {
    source: 'kubernetes',
    title: 'a Kubernetes Indexed Job',
    variable: K8S_INDEX,
    everyJob: false,
    place: fromKubernetes,
  },
  {
    source: 'aws-batch',
    title: 'an AWS Batch array job',
    variable: 'AWS_BATCH_JOB_ARRAY_INDEX',
    everyJob: false,
    place: fromAwsBatch,
  },
  {
    source: 'cloud-run',
    title: 'a Cloud Run job',
    variable: 'CLOUD_RUN_TASK_INDEX',
    everyJob: false,
    place: fromCloudRun,
  },
  {
    source: 'lsf',
    title: 'an LSF job array',
    variable: 'LSB_JOBINDEX',
    everyJob: false,
    notAnArray: (env) => env.LSB_JOBINDEX?.trim() === '0',
    place: fromLsf,
  },
  { source: 'nomad', title: 'a Nomad job', variable: 'NOMAD_ALLOC_INDEX', everyJob: true, place: fromNomad },
  { source: 'gnu-parallel', title: 'GNU parallel', variable: 'PARALLEL_SEQ', everyJob: true, place: fromParallel },
];

/** The schedulers whose array index `env` sets; those set in every job only when `auto` was asked. */
function presentSchedulers(env: Env, auto: boolean): Scheduler[] {
  return SCHEDULERS.filter((s) => env[s.variable] !== undefined && !s.notAnArray?.(env) && (auto || !s.everyJob));
}

const SCHEDULER_VARIABLES = SCHEDULERS.map((s) => s.variable).join(', ');
const AUTO_ALLOWED = `i/n such as 0/4, or auto in a scheduler's array job (${SCHEDULER_VARIABLES})`;

/**
 * The shard this process runs. `shard` is the --shard text (`i/n`, `auto`,
 * or undefined), `shards` the --shards text. With `required`, a missing
 * --shard and no scheduler index is an error; otherwise it means "not sharded" (null).
 */
export function resolveShard(
  shard: string | undefined,
  shards: string | undefined,
  env: Env,
  required: boolean,
): ShardPlace | null {
  if (shard !== undefined && shard !== 'auto') {
    if (shards !== undefined)
      throw new UsageError(
        '--shards: only with --shard auto (a scheduler that does not export the count); allowed: --shard i/n alone',
      );
    const match = /^(\d+)\/(\d+)$/.exec(shard);
    const index = match ? Number(match[1]) : Number.NaN;
    const count = match ? Number(match[2]) : Number.NaN;
    if (!(count >= 1 && count <= MAX_SHARDS && index >= 0 && index < count)) {
      throw badValue(
        '--shard',
        shard,
        `i/n with 0 ≤ i < n ≤ ${MAX_SHARDS} such as 0/4, or auto (from a scheduler's array index)`,
      );
    }
    return { index, count, source: 'option' };
  }
  const present = presentSchedulers(env, shard === 'auto');
  if (shard === undefined && present.length === 0) {
    if (shards !== undefined)
      throw new UsageError(
        '--shards: only with --shard auto (a scheduler that does not export the count); allowed: --shard auto ' +
          "inside a scheduler's array job, or --shard i/n in its place",
      );
    if (required) throw new UsageError(`--shard: missing; allowed: ${AUTO_ALLOWED}`);
    return null;
  }
  if (present.length > 1) {
    throw new UsageError(
      `--shard auto: ${present.map((s) => s.variable).join(' and ')} are both set ` +
        `(${present.map((s) => s.title).join(', ')}); allowed: the environment of one scheduler, or --shard i/n`,
    );
  }
  if (present.length === 0) {
    throw new UsageError(
      `--shard auto: no scheduler's array index is set (none of ${SCHEDULERS.map((s) => s.variable).join(', ')}); ` +
        `allowed: run inside one, or --shard i/n`,
    );
  }
  return present[0].place(env, shards);
}

function envInteger(env: Env, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--shard auto: ${name}: got ${JSON.stringify(raw)}; allowed: a whole number from ${min}`);
  }
  return Number(raw);
}

function fromSlurm(env: Env, shards: string | undefined): ShardPlace {
  const id = envInteger(env, SLURM_ID, 0) as number;
  const min = envInteger(env, 'SLURM_ARRAY_TASK_MIN', 0);
  const max = envInteger(env, 'SLURM_ARRAY_TASK_MAX', 0);
  const step = envInteger(env, 'SLURM_ARRAY_TASK_STEP', 1);
  const total = envInteger(env, 'SLURM_ARRAY_TASK_COUNT', 1);
  const seen = `${SLURM_ID}=${id}${min !== undefined ? ` ` + `MIN=${min}` : ''}${
    max !== undefined ? ` ` + `MAX=${max}` : ''
  }${step !== undefined ? ` STEP=${step}` : ''}${total !== undefined ? ` COUNT=${total}` : ''}`;
  const inconsistent = (why: string) =>
    new UsageError(
      `--shard auto: Slurm array environment ${seen} ${why}; allowed: an evenly spaced --array such as 0-15 or 1-31:2`,
    );

  let index: number;
  let count: number;
  if (min !== undefined && max !== undefined) {
    if (max < min) throw inconsistent('has MAX below MIN');
    // Without a step, COUNT tells it: an array a-b:s has (b − a)/s + 1 tasks.
    const spacing = step ?? (total !== undefined && total > 1 ? (max - min) / (total - 1) : 1);
    if (!Number.isInteger(spacing) || spacing < 1) throw inconsistent('is not evenly spaced');
    if ((max - min) % spacing !== 0) throw inconsistent('does not step from MIN to MAX');
    count = (max - min) / spacing + 1;
    if (total !== undefined && total !== count)
      throw inconsistent(`has ${count} ids from MIN to MAX but COUNT ${total} (a list of ids, not a range?)`);
    if (id < min || id > max || (id - min) % spacing !== 0) throw inconsistent('has an id off the array');
    index = (id - min) / spacing;
  } else if (total !== undefined && min === undefined && max === undefined) {
    // Only COUNT: the ids must be 0 … COUNT − 1.
    count = total;
    if (id >= total) throw inconsistent('has an id not below COUNT (without MIN and MAX, ids must run from 0)');
    index = id;
  } else {
    throw inconsistent('lacks SLURM_ARRAY_TASK_MIN and _MAX, or SLURM_ARRAY_TASK_COUNT');
  }
  if (count > MAX_SHARDS) throw inconsistent(`has ${count} tasks, more than ${MAX_SHARDS}`);
  if (shards !== undefined) {
    const given = parseShards(shards);
    if (given !== count)
      throw new UsageError(
        `--shards: got ${given} but the Slurm array has ${count} tasks; allowed: leave --shards out under Slurm, ` +
          `or the array's task count`,
      );
  }
  return { index, count, source: 'slurm' };
}

function fromKubernetes(env: Env, shards: string | undefined): ShardPlace {
  return zeroBased(
    env,
    K8S_INDEX,
    shards,
    undefined,
    'kubernetes',
    "the Indexed Job's completions (Kubernetes sets JOB_COMPLETION_INDEX but not the count)",
  );
}

function fromAwsBatch(env: Env, shards: string | undefined): ShardPlace {
  return zeroBased(
    env,
    'AWS_BATCH_JOB_ARRAY_INDEX',
    shards,
    'AWS_BATCH_JOB_ARRAY_SIZE',
    'aws-batch',
    "the array job's size (arrayProperties.size)",
  );
}

function fromCloudRun(env: Env, shards: string | undefined): ShardPlace {
  return zeroBased(env, 'CLOUD_RUN_TASK_INDEX', shards, 'CLOUD_RUN_TASK_COUNT', 'cloud-run', "the job's --tasks");
}

function fromNomad(env: Env, shards: string | undefined): ShardPlace {
  return zeroBased(
    env,
    'NOMAD_ALLOC_INDEX',
    shards,
    undefined,
    'nomad',
    "the group's count (Nomad sets NOMAD_ALLOC_INDEX but not the count)",
  );
}

/** GNU parallel numbers its jobs from 1 (PARALLEL_SEQ); the count is --shards, the number of jobs given to parallel. */
function fromParallel(env: Env, shards: string | undefined): ShardPlace {
  const seq = envInteger(env, 'PARALLEL_SEQ', 1) as number;
  if (shards === undefined)
    throw new UsageError(
      `--shards: missing; allowed: the number of jobs parallel runs (it sets PARALLEL_SEQ=${seq} but not the count)`,
    );
  const count = parseShards(shards);
  if (seq > count)
    throw new UsageError(
      `--shard auto: PARALLEL_SEQ=${seq} is above --shards ${count}; allowed: --shards equal to the number of ` +
        `jobs, such as parallel ... ::: $(seq ${count})`,
    );
  return { index: seq - 1, count, source: 'gnu-parallel' };
}

/**
 * An LSF job array `name[1-END:STEP]`: LSB_JOBINDEX runs 1, 1 + STEP, …, END.
 * LSF exports END and STEP but not the first index, which must be 1.
 */
function fromLsf(env: Env, shards: string | undefined): ShardPlace {
  const id = envInteger(env, 'LSB_JOBINDEX', 1) as number;
  const end = envInteger(env, 'LSB_JOBINDEX_END', 1);
  const step = envInteger(env, 'LSB_JOBINDEX_STEP', 1) ?? 1;
  const seen = `LSB_JOBINDEX=${id}${
    end !== undefined ? ` ` + `LSB_JOBINDEX_END=${end}` : ''
  }${env.LSB_JOBINDEX_STEP !== undefined ? ` LSB_JOBINDEX_STEP=${step}` : ''}`;
  const allowed = 'an array from 1 such as -J "muster[1-16]" or "muster[1-31:2]"';
  if ((id - 1) % step !== 0)
    throw new UsageError(
      `--shard auto: LSF array environment ${seen} has an index off an array from 1; allowed: ${allowed}`,
    );
  const index = (id - 1) / step;
  let count: number | undefined;
  if (end !== undefined) {
    if (end < id || (end - 1) % step !== 0)
      throw new UsageError(
        `--shard auto: LSF array environment ${seen} does not step from 1 to LSB_JOBINDEX_END; allowed: ${allowed}`,
      );
    count = (end - 1) / step + 1;
    if (count > MAX_SHARDS)
      throw new UsageError(
        `--shard auto: LSF array environment ${seen} has ${count} tasks, more than ${MAX_SHARDS}; allowed: at most ` +
          `${MAX_SHARDS}`,
      );
  }
  if (shards !== undefined) {
    const given = parseShards(shards);
    if (count !== undefined && given !== count)
      throw new UsageError(
        `--shards: got ${given} but the LSF array has ${count} tasks; allowed: leave --shards out, or the array's ` +
          `task count`,
      );
    count = given;
  }
  if (count === undefined)
    throw new UsageError(
      `--shards: missing; allowed: the array's task count (LSF sets ${seen} but not LSB_JOBINDEX_END)`,
    );
  if (index >= count)
    throw new UsageError(
      `--shard auto: LSF array environment ${seen} is task ${index + 1}, beyond the ${count} tasks; allowed: ` +
        `--shards equal to the array's task count`,
    );
  return { index, count, source: 'lsf' };
}

/**
 * A scheduler numbering tasks 0 … count − 1 in `indexVariable`, the count in
 * `countVariable` where it exports one, else --shards (which must then agree).
 */
function zeroBased(
  env: Env,
  indexVariable: string,
  shards: string | undefined,
  countVariable: string | undefined,
  source: ShardSource,
  countIs: string,
): ShardPlace {
  const index = envInteger(env, indexVariable, 0) as number;
  const exported = countVariable === undefined ? undefined : envInteger(env, countVariable, 1);
  if (exported !== undefined && exported > MAX_SHARDS)
    throw new UsageError(
      `--shard auto: ${countVariable}=${exported} is more than ${MAX_SHARDS} shards; allowed: at most ${MAX_SHARDS}`,
    );
  const given = shards === undefined ? undefined : parseShards(shards);
  if (exported !== undefined && given !== undefined && exported !== given) {
    throw new UsageError(
      `--shards: got ${given} but ${countVariable}=${exported}; allowed: leave --shards out, or ${exported}`,
    );
  }
  const count = exported ?? given;
  if (count === undefined) throw new UsageError(`--shards: missing; allowed: ${countIs}`);
  const from = exported !== undefined ? `${countVariable}=${count}` : `--shards ${count}`;
  if (index >= count)
    throw new UsageError(
      `--shard auto: ${indexVariable}=${index} is not below ${from}; allowed: --shards equal to ${countIs}`,
    );
  return { index, count, source };
}

function parseShards(raw: string): number {
  const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_SHARDS)) throw badValue('--shards', raw, `a whole number from 1 to ${MAX_SHARDS}`);
  return value;
}

/** An output name with `{index}` replaced by the shard index (several `{index}` allowed). */
export function fillIndex(name: string, place: ShardPlace | null, option = '--out'): string {
  if (!name.includes('{index}')) return name;
  if (!place)
    throw new UsageError(
      `${option}: ${JSON.stringify(name)} holds {index} but this is not a shard; allowed: {index} with --shard`,
    );
  return name.replaceAll('{index}', String(place.index));
}

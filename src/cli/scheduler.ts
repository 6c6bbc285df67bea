/**
 * Which shard this process is: from `--shard i/n`, or from the environment
 * a scheduler's array job sets (`--shard auto`, or no --shard when a
 * scheduler's index is present).
 *
 * - Slurm (`sbatch --array=a-b[:step]`): SLURM_ARRAY_TASK_ID with
 *   SLURM_ARRAY_TASK_MIN/MAX and SLURM_ARRAY_TASK_STEP, or
 *   SLURM_ARRAY_TASK_COUNT. Task ids need not start at 0 and may step:
 *   the shard index is (id − min) / step and the count (max − min) / step + 1.
 * - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (0 … completions − 1);
 *   Kubernetes does not export the completion count, so it comes from
 *   `--shards N`, which must equal the Job's `completions`.
 *
 * Anything missing or inconsistent is a UsageError: a shard that guessed
 * its place would merge into a wrong or incomplete result.
 */
import { badValue, UsageError } from '../errors.js';

/** Shards a run may be split into (muster shard --shard i/n). */
export const MAX_SHARDS = 10_000;

export interface ShardPlace {
  index: number;
  count: number;
  /** Where the place came from, for the progress line. */
  source: 'option' | 'slurm' | 'kubernetes';
}

type Env = Readonly<Record<string, string | undefined>>;

const SLURM_ID = 'SLURM_ARRAY_TASK_ID';
const K8S_INDEX = 'JOB_COMPLETION_INDEX';

/** True when a scheduler has set an array index in `env`. */
export function schedulerIndexPresent(env: Env): boolean {
  return env[SLURM_ID] !== undefined || env[K8S_INDEX] !== undefined;
}

/**
 * The shard this process runs. `shard` is the --shard text (`i/n`, `auto`,
 * or undefined), `shards` the --shards text. With `required`, a missing
 * --shard and no scheduler index is an error; otherwise it means "not sharded" (null).
 */
export function resolveShard(shard: string | undefined, shards: string | undefined, env: Env, required: boolean): ShardPlace | null {
  if (shard !== undefined && shard !== 'auto') {
    if (shards !== undefined) throw new UsageError('--shards: only with --shard auto (a Kubernetes Indexed Job); allowed: --shard i/n alone');
    const match = /^(\d+)\/(\d+)$/.exec(shard);
    const index = match ? Number(match[1]) : Number.NaN;
    const count = match ? Number(match[2]) : Number.NaN;
    if (!(count >= 1 && count <= MAX_SHARDS && index >= 0 && index < count)) {
      throw badValue('--shard', shard, `i/n with 0 ≤ i < n ≤ ${MAX_SHARDS} such as 0/4, or auto (from Slurm's or Kubernetes' array index)`);
    }
    return { index, count, source: 'option' };
  }
  if (shard === undefined && !schedulerIndexPresent(env)) {
    if (shards !== undefined) throw new UsageError('--shards: only with --shard auto (a Kubernetes Indexed Job); allowed: leave it out');
    if (required) throw new UsageError(`--shard: missing; allowed: i/n such as 0/4, or auto in a Slurm array job (${SLURM_ID}) or a Kubernetes Indexed Job (${K8S_INDEX})`);
    return null;
  }
  const slurm = env[SLURM_ID] !== undefined;
  const kubernetes = env[K8S_INDEX] !== undefined;
  if (slurm && kubernetes) throw new UsageError(`--shard auto: both ${SLURM_ID} and ${K8S_INDEX} are set; allowed: the environment of one scheduler, or --shard i/n`);
  if (slurm) return fromSlurm(env, shards);
  if (kubernetes) return fromKubernetes(env, shards);
  throw new UsageError(`--shard auto: neither ${SLURM_ID} (Slurm array job) nor ${K8S_INDEX} (Kubernetes Indexed Job) is set; allowed: run inside one, or --shard i/n`);
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
  const seen = `${SLURM_ID}=${id}${min !== undefined ? ` MIN=${min}` : ''}${max !== undefined ? ` MAX=${max}` : ''}${step !== undefined ? ` STEP=${step}` : ''}${total !== undefined ? ` COUNT=${total}` : ''}`;
  const inconsistent = (why: string) => new UsageError(`--shard auto: Slurm array environment ${seen} ${why}; allowed: an evenly spaced --array such as 0-15 or 1-31:2`);

  let index: number;
  let count: number;
  if (min !== undefined && max !== undefined) {
    if (max < min) throw inconsistent('has MAX below MIN');
    // Without a step, COUNT tells it: an array a-b:s has (b − a)/s + 1 tasks.
    const spacing = step ?? (total !== undefined && total > 1 ? (max - min) / (total - 1) : 1);
    if (!Number.isInteger(spacing) || spacing < 1) throw inconsistent('is not evenly spaced');
    if ((max - min) % spacing !== 0) throw inconsistent('does not step from MIN to MAX');
    count = (max - min) / spacing + 1;
    if (total !== undefined && total !== count) throw inconsistent(`has ${count} ids from MIN to MAX but COUNT ${total} (a list of ids, not a range?)`);
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
    if (given !== count) throw new UsageError(`--shards: got ${given} but the Slurm array has ${count} tasks; allowed: leave --shards out under Slurm, or the array's task count`);
  }
  return { index, count, source: 'slurm' };
}

function fromKubernetes(env: Env, shards: string | undefined): ShardPlace {
  const index = envInteger(env, K8S_INDEX, 0) as number;
  if (shards === undefined) throw new UsageError(`--shards: missing; allowed: the Indexed Job's completions (Kubernetes sets ${K8S_INDEX}=${index} but not the count)`);
  const count = parseShards(shards);
  if (index >= count) throw new UsageError(`--shard auto: ${K8S_INDEX}=${index} is not below --shards ${count}; allowed: --shards equal to the Job's completions`);
  return { index, count, source: 'kubernetes' };
}

function parseShards(raw: string): number {
  const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_SHARDS)) throw badValue('--shards', raw, `a whole number from 1 to ${MAX_SHARDS}`);
  return value;
}

/** An output name with `{index}` replaced by the shard index (several `{index}` allowed). */
export function fillIndex(name: string, place: ShardPlace | null, option = '--out'): string {
  if (!name.includes('{index}')) return name;
  if (!place) throw new UsageError(`${option}: ${JSON.stringify(name)} holds {index} but this is not a shard; allowed: {index} with --shard`);
  return name.replaceAll('{index}', String(place.index));
}

import { describe, expect, it } from 'vitest';
import { resolveShard } from '../../../../electron/common/sweep/shard.js';

const pick = (flag: string | undefined, count: number | undefined, env: Record<string, string>) => {
  const { index, count: n } = resolveShard(flag, count, env);
  return `${index}/${n}`;
};

describe('resolveShard', () => {
  it('takes --shard i/n first, even inside a Slurm array task', () => {
    expect(pick('2/4', undefined, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '3' })).toBe('2/4');
  });

  it('runs the whole sweep when nothing names a shard', () => {
    expect(resolveShard(undefined, undefined, {})).toMatchObject({ index: 1, count: 1 });
  });

  it('maps a Slurm array task to its shard: 0-based with COUNT, or by MIN/MAX/STEP', () => {
    expect(pick(undefined, undefined, { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '3' })).toBe('3/3');
    // sbatch --array=1-4 sets MIN=1 MAX=4 COUNT=4: task 1 is the first shard.
    expect(pick(undefined, undefined, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4', SLURM_ARRAY_TASK_COUNT: '4' })).toBe('1/4');
    // --array=0-8:4 runs tasks 0, 4, 8 (COUNT=3).
    expect(pick(undefined, undefined, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '8', SLURM_ARRAY_TASK_STEP: '4', SLURM_ARRAY_TASK_COUNT: '3' })).toBe('2/3');
  });

  it('refuses a Slurm list array, whose gaps would leave cases to no shard', () => {
    expect(() => resolveShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '9', SLURM_ARRAY_TASK_COUNT: '3' })).toThrow(
      'SLURM_ARRAY_TASK_COUNT=3 does not match the range 1-9:1 (9 tasks)',
    );
  });

  it('refuses a --shard-count that disagrees with the Slurm array', () => {
    expect(() => resolveShard(undefined, 4, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '3' })).toThrow('--shard-count 4 disagrees with the Slurm array\'s 3 tasks');
    expect(pick(undefined, 3, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '3' })).toBe('1/3');
  });

  it('refuses a Slurm task id with no way to know the count', () => {
    expect(() => resolveShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '1' })).toThrow('the number of shards is unknown');
  });

  it('maps a Kubernetes Indexed Job completion index (0-based) with --shard-count', () => {
    expect(resolveShard(undefined, 4, { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 4, from: 'JOB_COMPLETION_INDEX=3' });
    expect(pick(undefined, 4, { JOB_COMPLETION_INDEX: '0' })).toBe('1/4');
  });

  it('refuses a completion index without a count, or outside it', () => {
    expect(() => resolveShard(undefined, undefined, { JOB_COMPLETION_INDEX: '1' })).toThrow('no --shard-count n');
    expect(() => resolveShard(undefined, 2, { JOB_COMPLETION_INDEX: '2' })).toThrow('JOB_COMPLETION_INDEX=2 is outside 0..1');
    expect(() => resolveShard(undefined, undefined, { JOB_COMPLETION_INDEX: 'x' })).toThrow('JOB_COMPLETION_INDEX=x: expected an integer');
  });

  it('refuses a bad --shard', () => {
    for (const bad of ['0/3', '4/3', '1/0', '1-3', '']) expect(() => resolveShard(bad, undefined, {})).toThrow('expected i/n with 1 <= i <= n');
  });
});

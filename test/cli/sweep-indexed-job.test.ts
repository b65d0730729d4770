import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// No Kubernetes cluster can run here (no images can be pulled), so this runs what each pod of
// docs/examples/sweep-indexed-job.yaml runs, as written, with the JOB_COMPLETION_INDEX Kubernetes sets,
// only /data replaced by a temporary folder; then merges and compares with the unsharded run.
const manifest = readFileSync('docs/examples/sweep-indexed-job.yaml', 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-k8s-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The value of `key:` in the manifest (one occurrence; flow sequences are JSON). */
function field(key: string): string {
  const found = [...manifest.matchAll(new RegExp(`^\\s*${key}: (.*)$`, 'gm'))];
  expect(found, `docs/examples/sweep-indexed-job.yaml: one "${key}:"`).toHaveLength(1);
  return found[0][1].trim();
}

describe('docs/examples/sweep-indexed-job.yaml', () => {
  it('is an Indexed Job whose --shard-count equals its completions', () => {
    expect(field('kind')).toBe('Job');
    expect(field('completionMode')).toBe('Indexed');
    const args: string[] = JSON.parse(field('args'));
    expect(args[args.indexOf('--shard-count') + 1]).toBe(field('completions'));
    expect(JSON.parse(field('command'))).toEqual(['parity']);
  });

  it('run pod by pod (JOB_COMPLETION_INDEX 0..completions-1) gives the unsharded summary when merged', async () => {
    const completions = Number(field('completions'));
    const args: string[] = JSON.parse(field('args'));
    writeFileSync(join(dir, 'corpus.jsonl'), ['Hi.', 'Yes.', 'No way.', 'Stop.', 'Go on.', 'Wait.'].map((text, i) => JSON.stringify({ id: `p${i}`, text })).join('\n'));
    const local = args.map((a) => a.replace(/^\/data\//, `${dir}/`));
    for (let index = 0; index < completions; index++) {
      const pod = await runParity(local, { timeoutMs: 30_000, env: { JOB_COMPLETION_INDEX: String(index) } });
      expect(pod.status, pod.stderr).toBe(0);
      expect(pod.stderr).toContain(`sweep: shard ${index + 1}/${completions} (JOB_COMPLETION_INDEX=${index})`);
    }
    const out = local[local.indexOf('--out') + 1];
    const whole = join(dir, 'whole');
    const unsharded = local.map((a) => (a === out ? whole : a)).filter((a, i, all) => a !== '--shard-count' && all[i - 1] !== '--shard-count');
    expect((await runParity(unsharded, { timeoutMs: 30_000 })).status).toBe(0);
    const merge = async (from: string, to: string) => expect((await runParity(['sweep', 'merge', from, '--out', to, '--worst', '0'])).status).toBe(0);
    await merge(out, join(dir, 'm-pods'));
    await merge(whole, join(dir, 'm-whole'));
    expect(readFileSync(join(dir, 'm-pods', 'sweep.json'), 'utf8')).toBe(readFileSync(join(dir, 'm-whole', 'sweep.json'), 'utf8'));
  }, 90_000);
});

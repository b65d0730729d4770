import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let cacheDir: string;
beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'demo-cache-'));
});
afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

/** A separate Node process (TypeScript through tsx's loader) calling resolveDemoBundle(). */
function resolveInChild(): Promise<string> {
  const entry = resolve('electron/engine/demo/resolve-demo-bundle.ts');
  const code = `import(${JSON.stringify(entry)}).then(async (m) => process.stdout.write(await m.resolveDemoBundle()))`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { env: { ...process.env, PARITY_CACHE_DIR: cacheDir } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (status) => (status === 0 ? done(out) : fail(new Error(`exit ${status}: ${err}`))));
  });
}

describe('resolveDemoBundle', () => {
  it('two processes racing on an empty cache both succeed with the same complete folder', async () => {
    const [a, b] = await Promise.all([resolveInChild(), resolveInChild()]);
    expect(a).toBe(b);
    const names = await readdir(a);
    expect(names).toContain('bundle.json');
    expect(names.length).toBe(24); // demo bundle v5: 15 batch-1 model files, 8 batched exports, bundle.json
    // no temp folder left behind by the loser of the rename
    expect((await readdir(cacheDir)).filter((n) => n.startsWith('.tmp'))).toEqual([]);
  });
});

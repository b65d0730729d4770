import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';

// The native check's fixture writer (scripts/gpu-pack runs it) goes through the CLI's one output writer.
const dir = mkdtempSync(join(tmpdir(), 'native-fixture-cli-'));
const bundle = join(dir, 'bundle');
const out = join(dir, 'fixture');
const run = (...args: string[]) => spawnSync(process.execPath, ['dist/electron/cli/export-native-fixture.js', ...args], { encoding: 'utf8', timeout: 120_000 });

beforeAll(() => writeDemoBundle(bundle), 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export-native-fixture', () => {
  it('writes a new folder, refuses to replace it without --force (exit 2, one line), replaces it with --force', () => {
    const first = run('--bundle', bundle, '--out', out);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^wrote ${out}/ \\(.+\\)\\n$`));
    for (const name of ['weights.bin', 'config.txt', 'reference-stale.bin', 'reference-sampled-codes.txt']) expect(first.stdout).toContain(name);
    expect(existsSync(join(out, 'prompt.txt'))).toBe(true);

    const again = run('--bundle', bundle, '--out', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`^parity export-native-fixture: --out ${out}: .*--force.*\\n$`));
    expect(again.stdout).toBe('');

    expect(run('--bundle', bundle, '--out', out, '--force').status).toBe(0);
  }, 120_000);

  it('a missing --bundle or a bad --stale-step is exit 2 with one line', () => {
    const noBundle = run('--out', join(dir, 'other'));
    expect(noBundle.status).toBe(2);
    expect(noBundle.stderr).toMatch(/^parity export-native-fixture: required option '--bundle <dir>' not specified\n$/);
    const badStep = run('--bundle', bundle, '--out', join(dir, 'other'), '--stale-step', 'two');
    expect(badStep.status).toBe(2);
    expect(badStep.stderr).toBe('parity export-native-fixture: --stale-step two: expected a step (an integer >= 0), found "two"\n');
    expect(existsSync(join(dir, 'other'))).toBe(false);
  });
});

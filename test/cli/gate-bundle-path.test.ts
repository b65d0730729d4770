import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealReport } from '../../electron/engine/comparison/fixture-integrity.js';

// A fixture made with a bundle folder given as a relative path, from one working folder, must re-run from
// any other: the gate resolves the bundle against the fixture folder, not the folder it runs in.
const dir = mkdtempSync(join(tmpdir(), 'parity-gate-bundle-'));
const launcher = resolve('bin/parity.js');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `node <checkout>/bin/parity.js ...args` run in `cwd`. */
function parityIn(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [launcher, ...args], { cwd, encoding: 'utf8', timeout: 90_000 });
}

const repo = join(dir, 'repo');
const REL_BUNDLE = '../../bundles/copy';

beforeAll(() => {
  mkdirSync(repo);
  const built = parityIn(repo, ['bundle', 'build-demo', '--out', 'bundles/copy']);
  expect(built.status, built.stderr).toBe(0);
  const made = parityIn(repo, ['compare', '--text', 'Where is my bundle?', '--a', 'graph', '--b', 'graph,fault=stale-feedback@3', '--bundle', 'bundles/copy', '--out', 'fixtures/one']);
  expect(made.status, made.stderr).toBe(0);
}, 180_000);

describe('parity gate: the bundle of a fixture, found from the fixture folder', () => {
  it('records the bundle as given and as found from the fixture', () => {
    const rerun = JSON.parse(readFileSync(join(repo, 'fixtures', 'one', 'report.json'), 'utf8')).rerun;
    expect(rerun.bundle).toBe('bundles/copy');
    expect(rerun.bundleFromFixture).toBe(REL_BUNDLE);
  });

  it('passes from another working folder, and after the whole checkout moved', () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const run = parityIn(elsewhere, ['gate', '../repo/fixtures/one']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('PASS ../repo/fixtures/one: graph vs graph,fault=stale-feedback@3: recorded diverged at step 3 (talker-logits)');
    expect(run.status).toBe(0);

    const moved = join(dir, 'moved');
    cpSync(repo, moved, { recursive: true });
    const after = parityIn(tmpdir(), ['gate', join(moved, 'fixtures', 'one')]);
    expect(after.stdout).toContain(`PASS ${join(moved, 'fixtures', 'one')}`);
    expect(after.status).toBe(0);
  }, 120_000);

  it('a fixture whose bundle is missing fails alone, naming the path it tried and where that came from', () => {
    const lost = join(dir, 'lost', 'fixtures', 'two');
    cpSync(join(repo, 'fixtures', 'one'), lost, { recursive: true });
    const run = parityIn(dir, ['gate', join(repo, 'fixtures', 'one'), lost]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`PASS ${join(repo, 'fixtures', 'one')}`);
    expect(run.stdout).toContain(
      `FAIL ${lost}: graph vs graph,fault=stale-feedback@3: recorded diverged at step 3 (talker-logits)\n` +
        `  - ${join(dir, 'lost', 'bundles', 'copy')}: no such folder (rerun.bundleFromFixture "${REL_BUNDLE}", resolved against the fixture folder)\n`,
    );
    expect(run.stdout).toContain('gate: 1 passed, 1 failed\n');
    expect(run.status).toBe(1);
  }, 120_000);

  it('a fixture written before bundleFromFixture resolves its bundle against the current folder, and says so when it is not there', () => {
    const old = join(dir, 'old-repo');
    renameSync(join(dir, 'moved'), old);
    const fx = join(old, 'fixtures', 'one');
    // As an earlier version sealed it: the same report without the field.
    const report = JSON.parse(readFileSync(join(fx, 'report.json'), 'utf8'));
    delete report.integrity;
    delete report.rerun.bundleFromFixture;
    const files: Record<string, Uint8Array> = {};
    for (const f of ['a.wav', 'b.wav', 'diff.wav', 'a.jsonl', 'b.jsonl', 'report.md']) files[f] = new Uint8Array(readFileSync(join(fx, f)));
    writeFileSync(join(fx, 'report.json'), sealReport(report, files));

    const fromRoot = parityIn(old, ['gate', 'fixtures/one']);
    expect(fromRoot.stdout).toContain('PASS fixtures/one');
    expect(fromRoot.status).toBe(0);
    const fromElsewhere = parityIn(join(old, 'fixtures'), ['gate', 'one']);
    expect(fromElsewhere.stdout).toContain(
      `  - ${join(old, 'fixtures', 'bundles', 'copy')}: no such folder (rerun.bundle "bundles/copy" as recorded, resolved against the current folder: the fixture predates bundleFromFixture; pass --bundle)\n`,
    );
    expect(fromElsewhere.status).toBe(1);
    const overridden = parityIn(join(old, 'fixtures'), ['gate', 'one', '--bundle', '../bundles/copy']);
    expect(overridden.stdout).toContain('PASS one');
    expect(overridden.status).toBe(0);
  }, 180_000);
});

describe('parity sweep merge: a sweep run with a relative --bundle merges from another working folder', () => {
  it('the shard header records the bundle absolute, and the merge re-runs the worst case on it', () => {
    writeFileSync(join(repo, 'corpus.txt'), 'Hi there.\nGo on.\n');
    const swept = parityIn(repo, ['sweep', '--corpus', 'corpus.txt', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--bundle', 'bundles/copy', '--out', 'runs']);
    expect(swept.status, swept.stderr).toBe(0);
    const elsewhere = mkdtempSync(join(dir, 'merge-from-'));
    const merged = parityIn(elsewhere, ['sweep', 'merge', join(repo, 'runs'), '--out', join(repo, 'merged'), '--worst', '1']);
    expect(merged.status, merged.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(repo, 'merged', 'sweep.json'), 'utf8'));
    expect(summary.bundle).toBe(join(realpathSync(repo), 'bundles', 'copy'));
    expect(summary.worst[0].fixture).toBeTruthy();
  });
});

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepSummary } from '../../electron/common/sweep/sweep-summary.js';
import { NO_REPORT_PAGE, NO_REPORT_PAGE_WARNING } from './no-report-page.js';
import { runParity } from './run-parity.js';

// The demo bundle; 30 short prompts (a few frames each). Seed 000's signature: a stale audio feedback at
// the first graph decode step makes every prompt part at step 2.
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-'));
const corpus = join(dir, 'corpus.txt');
const PAIR = ['--a', 'graph', '--b', 'graph,fault=stale-feedback@2'];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const summaryAt = (folder: string) => SweepSummary.parse(JSON.parse(readFileSync(join(folder, 'sweep.json'), 'utf8')));

/** The files sweep.html's links point at, resolved as a browser does from file:// (relative to sweep.html). */
function linkedFiles(folder: string): string[] {
  const page = pathToFileURL(join(folder, 'sweep.html'));
  const hrefs = [...readFileSync(join(folder, 'sweep.html'), 'utf8').matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
  return hrefs.map((href) => fileURLToPath(new URL(href, page)));
}

describe('parity sweep over a corpus', () => {
  beforeAll(async () => {
    const words = ['Hi', 'Yes', 'No', 'Go on', 'Stop', 'Wait', 'Look', 'Here', 'There', 'Now'];
    writeFileSync(corpus, Array.from({ length: 30 }, (_, i) => `${words[i % 10]} ${i}.`).join('\n') + '\n');
    const run = await runParity(['sweep', '--corpus', corpus, ...PAIR, '--out', join(dir, 'whole'), '--jobs', '2'], { timeoutMs: 60_000 });
    expect(run.stderr).toContain('sweep: shard 1/1');
    expect(run.status).toBe(0);
  }, 90_000);

  it('puts every case of graph vs stale-feedback@2 in the step-2 bar and re-runs the worst as a fixture', async () => {
    const merged = join(dir, 'merged-whole');
    const run = await runParity(['sweep', 'merge', join(dir, 'whole'), '--out', merged, '--worst', '1'], { timeoutMs: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('30 of 30 cases: 0 identical, 0 within tolerance, 30 diverged, 0 errors, 0 missing; most frequent first divergent step 2');
    const s = summaryAt(merged);
    expect(s.firstStep.histogram).toEqual([{ step: 2, count: 30 }]);
    expect(s.cases.every((c) => c.firstStep === 2 && c.stage === 'talker-logits')).toBe(true);
    // A stale feedback is a real bug, not numeric drift: every first code flip is classified real.
    expect(s.flips).toEqual({ 'near-tie': 0, real: 30, unknown: 0 });
    expect(s.worst).toHaveLength(1);
    const fixture = join(merged, s.worst[0].fixture!);
    const report = JSON.parse(readFileSync(join(fixture, 'report.json'), 'utf8'));
    expect(report.divergence.firstStep).toBe(2);
    // The files parity compare --out writes, report.html and the figures included.
    for (const name of ['a.wav', 'b.wav', 'diff.wav', 'a.jsonl', 'b.jsonl', 'report.md', 'report.html']) expect(existsSync(join(fixture, name)), name).toBe(true);
    expect(readFileSync(join(merged, 'sweep.md'), 'utf8')).toContain('step    2 | ######################################## 30');
    expect(run.stdout).toContain(`wrote ${merged}/ (sweep.json, sweep.md, sweep.html, ${s.worst[0].fixture}/)`);
    expect(readdirSync(merged).sort()).toEqual([s.worst[0].fixture!.split('/')[0], 'sweep.html', 'sweep.json', 'sweep.md'].sort());
    // sweep.html links the worst case to its fixture's report.html, relative to itself.
    expect(linkedFiles(merged)).toEqual([join(fixture, 'report.html')]);
    // The fixture is a real comparison fixture: parity gate re-runs it and it passes.
    expect((await runParity(['gate', fixture], { timeoutMs: 30_000 })).status).toBe(0);
  }, 60_000);

  it('merges shards 1/3 (--shard), 2/3 (Slurm array task) and 3/3 (Indexed Job) into the unsharded summary, byte for byte', async () => {
    const shards = join(dir, 'shards');
    const base = ['sweep', '--corpus', corpus, ...PAIR, '--out', shards];
    const runs = [
      await runParity([...base, '--shard', '1/3'], { timeoutMs: 60_000 }),
      await runParity(base, { timeoutMs: 60_000, env: { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '2', SLURM_ARRAY_TASK_COUNT: '3' } }),
      await runParity([...base, '--shard-count', '3'], { timeoutMs: 60_000, env: { JOB_COMPLETION_INDEX: '2' } }),
    ];
    expect(runs.map((r) => r.status)).toEqual([0, 0, 0]);
    expect(runs[1].stderr).toContain('shard 2/3 (SLURM_ARRAY_TASK_ID=1): 10 cases');
    expect(runs[2].stderr).toContain('shard 3/3 (JOB_COMPLETION_INDEX=2): 10 cases');
    for (const i of [1, 2, 3]) expect(existsSync(join(shards, `shard-00${i}-of-3.jsonl`))).toBe(true);
    const [a, b] = [join(dir, 'm-whole'), join(dir, 'm-shards')];
    // --worst 1: sweep.html then links a re-run fixture, so its links are compared too.
    expect((await runParity(['sweep', 'merge', join(dir, 'whole'), '--out', a, '--worst', '1'], { timeoutMs: 30_000 })).status).toBe(0);
    expect((await runParity(['sweep', 'merge', shards, '--out', b, '--worst', '0'])).status).toBe(0);
    // An existing --out is refused unless --force.
    const again = await runParity(['sweep', 'merge', shards, '--out', b, '--worst', '0']);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already exists (use --force to write into it)');
    expect((await runParity(['sweep', 'merge', shards, '--out', b, '--worst', '1', '--force'], { timeoutMs: 30_000 })).status).toBe(0);
    for (const file of ['sweep.json', 'sweep.md', 'sweep.html']) expect(readFileSync(join(b, file), 'utf8'), file).toBe(readFileSync(join(a, file), 'utf8'));
    const links = linkedFiles(b);
    expect(links).toHaveLength(1);
    expect(existsSync(links[0])).toBe(true);
  }, 120_000);

  it('without a built report page: one warning line, the fixture without report.html, sweep.html linking its report.md', async () => {
    const merged = join(dir, 'merged-no-page');
    const run = await runParity(['sweep', 'merge', join(dir, 'whole'), '--out', merged, '--worst', '1'], { timeoutMs: 30_000, imports: [NO_REPORT_PAGE] });
    expect(run.status).toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([expect.stringMatching(NO_REPORT_PAGE_WARNING)]);
    const fixture = join(merged, summaryAt(merged).worst[0].fixture!);
    expect(existsSync(join(fixture, 'report.html'))).toBe(false);
    expect(existsSync(join(fixture, 'overlay.png'))).toBe(true);
    expect(linkedFiles(merged)).toEqual([join(fixture, 'report.md')]);
    expect(existsSync(join(fixture, 'report.md'))).toBe(true);
  }, 60_000);

  it('gates on the diverged rate: exit 1 above it, 0 at it; exit 2 with no threshold', async () => {
    const fail = await runParity(['sweep', 'gate', join(dir, 'whole'), '--max-diverged-rate', '0.5']);
    expect(fail.status).toBe(1);
    expect(fail.stdout).toContain('FAIL diverged-rate: diverged 30 of 30 (1.0000) > 0.5');
    const pass = await runParity(['sweep', 'gate', join(dir, 'whole'), '--max-diverged-rate', '1']);
    expect(pass.status).toBe(0);
    expect(pass.stdout).toContain('sweep gate: passed');
    const none = await runParity(['sweep', 'gate', join(dir, 'whole')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('give at least one threshold');
    // The same thresholds from a file; a flag overrides the file's value; an unknown key is refused.
    const file = join(dir, 'thresholds.json');
    writeFileSync(file, JSON.stringify({ maxDivergedRate: 0.5, maxOutliers: 40 }));
    expect((await runParity(['sweep', 'gate', join(dir, 'whole'), '--thresholds', file])).status).toBe(1);
    expect((await runParity(['sweep', 'gate', join(dir, 'whole'), '--thresholds', file, '--max-diverged-rate', '1'])).status).toBe(0);
    writeFileSync(file, JSON.stringify({ maxDivergedRatio: 0.5 }));
    const unknown = await runParity(['sweep', 'gate', join(dir, 'whole'), '--thresholds', file]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`${file}: not sweep gate thresholds`);
  }, 30_000);
});

describe('parity sweep over a mixed corpus', () => {
  it('counts identical, diverged and failed cases, and the gate fails on the error until it is allowed', async () => {
    // A fault at step 20 acts only on prompts long enough to reach step 20; 200 bytes is over the demo
    // bundle's 128-byte text limit, so that case fails in the engine and is recorded as an error.
    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(
      mixed,
      [
        '{"id":"short","text":"Hi."}',
        '{"id":"long","text":"This is a rather longer prompt that should run many frames."}',
        `{"id":"too-long","text":"${'a'.repeat(200)}"}`,
        '{"id":"short-seeded","text":"No.","seed":7}',
      ].join('\n'),
    );
    const out = join(dir, 'mixed');
    const run = await runParity(['sweep', '--corpus', mixed, '--a', 'graph', '--b', 'graph,fault=stale-feedback@20', '--out', out], { timeoutMs: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("too-long@0: error: text: 200 UTF-8 bytes, over this bundle's limit of 128");
    const merged = join(dir, 'mixed-merged');
    expect((await runParity(['sweep', 'merge', out, '--out', merged, '--worst', '0'])).status).toBe(0);
    const s = summaryAt(merged);
    expect(s.counts).toEqual({ identical: 2, 'within-tolerance': 0, diverged: 1, 'degenerate-audio': 0, error: 1, missing: 0 });
    expect(s.cases.map((c) => `${c.id}@${c.seed}:${c.verdict}:${c.firstStep}`)).toEqual(['short@0:identical:null', 'long@0:diverged:20', 'too-long@0:error:null', 'short-seeded@7:identical:null']);
    expect((await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '0.5'])).status).toBe(1);
    expect((await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '0.5', '--max-errors', '1'])).status).toBe(0);
  }, 90_000);
});

describe('parity sweep refuses bad input (exit 2, one line)', () => {
  it.each([
    [['--corpus', 'CORPUS', '--a', 'graph', '--b', 'eager'], 'give --out DIR'],
    [['--corpus', 'CORPUS', '--a', 'graph', '--out', 'OUT'], 'needs --a PROFILE and --b PROFILE'],
    [['--corpus', 'CORPUS', '--a', 'graph', '--b', 'egaer', '--out', 'OUT'], 'profile "egaer": unknown preset'],
    [['--traces', 'A', '--out', 'OUT'], '--traces takes two folders'],
    [['--corpus', 'BAD', '--a', 'graph', '--b', 'eager', '--out', 'OUT'], 'bad.jsonl:2: not valid JSON'],
    [['--corpus', 'CORPUS', '--a', 'graph', '--b', 'eager', '--out', 'OUT', '--seeds', '1-x'], '--seeds 1-x: expected integers'],
    [['--corpus', 'CORPUS', '--a', 'graph', '--b', 'eager', '--out', 'OUT', '--shard', '4/3'], '--shard 4/3: expected i/n'],
  ])('%j', async (args, message) => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id":"a","text":"Hi."}\n{"id":"b",\n');
    writeFileSync(join(dir, 'c.txt'), 'Hi.\n');
    const fill = (a: string) => ({ CORPUS: join(dir, 'c.txt'), BAD: bad, OUT: join(dir, 'refused'), A: dir })[a] ?? a;
    const run = await runParity(['sweep', ...args.map(fill)]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });
});

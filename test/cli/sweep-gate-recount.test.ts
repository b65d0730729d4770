import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// Hand-written shards (no engine): four cases, two diverged. `parity sweep merge` writes the sweep.json
// each test then edits by hand so that its counts or indexes disagree with its own case list.
const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-recount-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = (planned: string[], total = planned.length) =>
  `{"schema":"tts-parity-sweep/1","mode":"profiles","a":"graph","b":"eager","bundle":"demo","corpusSha256":"${'a'.repeat(64)}",` +
  `"totalCases":${total},"shard":{"index":1,"count":1},"planned":${JSON.stringify(planned)}}`;
const line = (index: number, id: string, verdict: string) =>
  `{"index":${index},"id":"${id}","seed":0,"verdict":"${verdict}","firstStep":${verdict === 'diverged' ? 2 : null},` +
  `"stage":${verdict === 'diverged' ? '"talker-logits"' : null},"codebook":${verdict === 'diverged' ? 0 : null},` +
  `"reconverges":${verdict === 'diverged' ? false : null},"flip":null,"correlation":${verdict === 'diverged' ? 0.5 : 1},` +
  `"nullDepthDb":null,"loudnessDeltaLU":null,"lsdDb":null,"mcdDb":null,"timings":{"aMs":1,"bMs":1,"wallMs":2}}`;
const PLAN = ['a@0', 'b@0', 'c@0', 'd@0'];
const CASES = [line(0, 'a', 'identical'), line(1, 'b', 'diverged'), line(2, 'c', 'diverged'), line(3, 'd', 'identical')];

function shardFolder(name: string, lines: string[]): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'shard-001-of-1.jsonl'), lines.join('\n') + '\n');
  return folder;
}

const merged = join(dir, 'merged');
let summary: { counts: Record<string, number>; cases: { index: number }[] };
beforeAll(async () => {
  const run = await runParity(['sweep', 'merge', shardFolder('good', [header(PLAN), ...CASES]), '--out', merged, '--worst', '0']);
  expect(run.stderr).toBe('');
  summary = JSON.parse(readFileSync(join(merged, 'sweep.json'), 'utf8'));
}, 30_000);

/** A copy of the merged sweep.json changed by `edit`, and `parity sweep gate` run on it. */
async function gateEdited(name: string, edit: (s: typeof summary) => void) {
  const copy = structuredClone(summary);
  edit(copy);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return { file, run: await runParity(['sweep', 'gate', file, '--max-diverged-rate', '1']) };
}

describe('parity sweep gate recounts a summary from its cases', () => {
  it('passes the summary as merged (2 of 4 diverged, counted by hand)', async () => {
    const run = await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '0.5']);
    expect(run.stdout).toContain('PASS diverged-rate: diverged 2 of 4 (0.5000) <= 0.5');
    expect(run.status).toBe(0);
  });

  it('refuses an edited count with exit 2 and one line naming the field, what it says and what the cases give', async () => {
    const { file, run } = await gateEdited('diverged-zero', (s) => {
      s.counts.diverged = 0;
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`parity sweep gate: ${file}: counts.diverged is 0, but its cases give 2; the file was edited or damaged: run parity sweep merge again\n`);
  });

  it('refuses a missing count the cases contradict, an index past totalCases and an index held twice', async () => {
    const missing = await gateEdited('missing', (s) => {
      s.counts.missing = 3;
    });
    expect(missing.run.status).toBe(2);
    expect(missing.run.stderr).toBe(`parity sweep gate: ${missing.file}: counts.missing is 3, but its cases give 0; the file was edited or damaged: run parity sweep merge again\n`);
    const past = await gateEdited('past', (s) => {
      s.cases[3].index = 4;
    });
    expect(past.run.status).toBe(2);
    expect(past.run.stderr).toBe(`parity sweep gate: ${past.file}: case "d@0" has index 4, past totalCases (4); the file was edited or damaged: run parity sweep merge again\n`);
    const twice = await gateEdited('twice', (s) => {
      s.cases[3].index = 2;
    });
    expect(twice.run.status).toBe(2);
    expect(twice.run.stderr).toBe(`parity sweep gate: ${twice.file}: cases "c@0" and "d@0" both have index 2; the file was edited or damaged: run parity sweep merge again\n`);
  });

  it('refuses a shard folder whose lines disagree with its plan (an id not planned) with exit 2 and one line', async () => {
    const folder = shardFolder('unplanned', [header(PLAN), ...CASES.slice(0, 3), line(3, 'zz', 'identical')]);
    const run = await runParity(['sweep', 'gate', folder, '--max-diverged-rate', '1']);
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')).toHaveLength(2);
    expect(run.stderr).toMatch(/^parity sweep gate: .*shard-001-of-1\.jsonl.*"zz@0"/);
  });
});

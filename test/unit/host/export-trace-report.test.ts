import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { TraceComparisonReport } from '../../../electron/common/report/comparison-report.js';
import { stringifyReport } from '../../../electron/common/report/json-number.js';
import { compareTraceCommand } from '../../../electron/common/report/trace-comparison-view.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { checkFixture, EngineCache } from '../../../electron/engine/comparison/check-fixture.js';
import { exportFixture } from '../../../electron/host/export-fixture.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { compareTraceTexts } from '../../../electron/host/tasks/compare-trace-texts.js';
import { runParity } from '../../cli/run-parity.js';
import { ensureBuilt } from './ensure-built.js';
import { CHECKOUT_PARITY } from '../../setup/checkout-parity.js';

// The studio's export of imported traces against `parity compare-trace --out` on the same files: the
// studio is given the files' full paths as their names (what the desktop app's file dialog gives), and
// its clock is pinned to the CLI's SOURCE_DATE_EPOCH, so every input of report.md is the same.
const root = mkdtempSync(join(tmpdir(), 'export-trace-report-'));
const SOURCE_DATE_EPOCH = 1700000000;
const engines = new EngineCache();
let host: StudioHost;
let studio: StudioApi;

// Hand-written to docs/trace-format.md, as test/cli/compare-trace.test.ts writes them: B's talker
// logits jump at step 3 only (mean 0.31 vs 13.2), same codes, and match again at step 4.
const HEADER = '{"schema":"tts-parity-trace/1","engine":"hand","profile":"eager","q":2,"frameRate":12.5,"sampleRate":24000}';
const step = (n: number, mean: number, codes: [number, number]) =>
  `{"step":${n},"logits":{"mean":${mean},"std":2,"min":-5,"max":9,"argmax":${codes[0]},"top5":[{"id":${codes[0]},"logit":9}]},"codes":[${codes.join(',')}]}`;
const trace = (mean3: number) => [HEADER, step(1, 13.43, [5, 1]), step(2, 13.2, [7, 2]), step(3, mean3, [7, 3]), step(4, 13.1, [9, 4])].join('\n') + '\n';

function writeInputs(dir: string) {
  mkdirSync(dir, { recursive: true });
  const rate = 24000;
  // 4 frames of 1920 samples (24 kHz at 12.5 frames/s); B silenced over samples 5000..5099 (frame 3).
  // A is 16-bit stereo, so both routes mix down and convert it; B is float32 mono.
  const a = Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / rate));
  const b = a.slice().fill(0, 5000, 5100);
  const paths = { traceA: join(dir, 'run a.jsonl'), traceB: join(dir, 'run-b.jsonl'), wavA: join(dir, 'run-a.wav'), wavB: join(dir, 'run-b.wav') };
  writeFileSync(paths.traceA, trace(13.2));
  writeFileSync(paths.traceB, trace(0.31));
  writeFileSync(paths.wavA, encodeWav([a, a], rate, 'pcm16'));
  writeFileSync(paths.wavB, encodeWav([b], rate, 'float32'));
  return paths;
}

function readFolder(dir: string): Record<string, Buffer> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name))]));
}

beforeAll(() => {
  ensureBuilt();
  host = new StudioHost({ dataDir: join(root, 'data') });
  studio = createDirectClient(host);
}, 120_000);
afterAll(async () => {
  vi.useRealTimers();
  await host?.dispose();
  await engines.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs `parity compare-trace ... --out out` at SOURCE_DATE_EPOCH; returns the folder's files and removes it. */
async function cliFixture(args: string[], out: string): Promise<Record<string, Buffer>> {
  const run = await runParity(['compare-trace', ...args, '--out', out], { env: { SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH) } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const files = readFolder(out);
  rmSync(out, { recursive: true });
  return files;
}

/** Imports traces and WAVs into the studio at the CLI's pinned time; returns the history id. */
async function importAt(f: ReturnType<typeof writeInputs>, maxLagMs?: number): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(SOURCE_DATE_EPOCH * 1000);
  try {
    const imported = await studio.importTraces({
      a: { name: f.traceA, text: readFileSync(f.traceA, 'utf8') },
      b: { name: f.traceB, text: readFileSync(f.traceB, 'utf8') },
      wavA: { name: f.wavA, bytes: readFileSync(f.wavA) },
      wavB: { name: f.wavB, bytes: readFileSync(f.wavB) },
      maxLagMs,
    });
    return imported.historyId;
  } finally {
    vi.useRealTimers();
  }
}

function expectSameFixture(studioFiles: Record<string, Buffer>, cli: Record<string, Buffer>): void {
  expect(Object.keys(studioFiles)).toEqual(Object.keys(cli));
  expect(studioFiles['report.md'].toString('utf8')).toBe(cli['report.md'].toString('utf8'));
  // The traces as imported, the audio as compared and diff.wav are the same bytes too.
  for (const name of Object.keys(cli).filter((n) => n !== 'report.json' && n !== 'report.md')) expect(studioFiles[name].equals(cli[name]), name).toBe(true);
}

describe('an exported trace import writes the report.md of `parity compare-trace --out`', () => {
  it("byte for byte with the runs' WAVs (the CLI's ±50 ms lag search), and the gate passes on the export", async () => {
    const f = writeInputs(join(root, 'wavs'));
    const out = join(root, 'fixture-wavs');
    const cli = await cliFixture([f.traceA, f.traceB, '--wav-a', f.wavA, '--wav-b', f.wavB], out);
    // The import's default lag range is DEFAULT_MAX_LAG_MS (50), the CLI's default; another range is the next test.
    await studio.exportFixture({ id: await importAt(f), dir: out });
    const exported = readFolder(out);
    expectSameFixture(exported, cli);
    const md = exported['report.md'].toString('utf8');
    // What the WAV-pair rendering lacked: the step table, the divergence lines, Reproduce and the gate line.
    expect(md).toContain('### Steps around the first divergence');
    expect(md).toMatch(/\| 3 \| 13\.2000 \| 0\.3100 \|/);
    expect(md).toContain(`- A: ${f.traceA} (hand, eager, 4 steps)\n`);
    // Reproduce reads the copies stored in the export (the imported paths may be gone) and writes beside it.
    expect(md).toContain(`### Reproduce\n\n\`\`\`sh\n${CHECKOUT_PARITY} compare-trace ${out}/a.jsonl ${out}/b.jsonl --wav-a ${out}/a.wav --wav-b ${out}/b.wav --out ${out}-rerun\n\`\`\`\n`);
    expect(md).toContain(`\`\`\`sh\n${CHECKOUT_PARITY} gate ${out}\n\`\`\`\n`);
    const check = await checkFixture(out, engines);
    expect(check.problems).toEqual([]);
    expect(check.ok).toBe(true);
  }, 60_000);

  it('at another lag range (±100 ms) the command carries --max-lag-ms 100, and that command writes the same report.md', async () => {
    const f = writeInputs(join(root, 'lag'));
    const out = join(root, 'fixture-lag');
    await studio.exportFixture({ id: await importAt(f, 100), dir: out });
    const exported = readFolder(out);
    const md = exported['report.md'].toString('utf8');
    expect(md).toContain(`\n${CHECKOUT_PARITY} compare-trace ${out}/a.jsonl ${out}/b.jsonl --wav-a ${out}/a.wav --wav-b ${out}/b.wav --max-lag-ms 100 --out ${out}-rerun\n`);
    expect(md).toContain('searched ±100.0 ms |');
    rmSync(out, { recursive: true });
    const cli = await cliFixture([f.traceA, f.traceB, '--wav-a', f.wavA, '--wav-b', f.wavB, '--max-lag-ms', '100'], out);
    // The CLI writes the same report.md, its Reproduce line with --max-lag-ms 100 too.
    expect(cli['report.md'].toString('utf8')).toBe(md);
  }, 60_000);

  it('byte for byte without WAVs (exportFixture on the entry as the host keeps it), and the gate passes', async () => {
    const f = writeInputs(join(root, 'plain'));
    const out = join(root, 'fixture-plain');
    const cli = await cliFixture([f.traceA, f.traceB], out);
    const traces = { a: readFileSync(f.traceA, 'utf8'), b: readFileSync(f.traceB, 'utf8') };
    const createdAt = new Date(SOURCE_DATE_EPOCH * 1000).toISOString();
    const { report } = await compareTraceTexts({ kind: 'compare-traces', a: { name: f.traceA, text: traces.a }, b: { name: f.traceB, text: traces.b }, maxLagMs: 50, createdAt });
    await exportFixture({ historyId: '20231114-221320-abcdef', report: JSON.parse(stringifyReport(report)) }, out, false, traces);
    expectSameFixture(readFolder(out), cli);
    const check = await checkFixture(out, engines);
    expect(check.problems).toEqual([]);
    expect(check.ok).toBe(true);
    // Tolerances other than DEFAULT_TOLERANCES (1e-3, 0, 1e-4) become the CLI's flags in the command.
    const tolerances = { logitAbs: 0.01, logitRel: 0.001, audioAbs: 1e-4, codes: 'exact' as const };
    const traced = report as unknown as TraceComparisonReport;
    expect(compareTraceCommand({ ...traced, divergence: { ...traced.divergence, tolerances } })).toBe(
      `parity compare-trace '${f.traceA}' ${f.traceB} --logit-tol 0.01 --logit-rel-tol 0.001`,
    );
  }, 60_000);
});

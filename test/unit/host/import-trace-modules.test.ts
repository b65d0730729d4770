import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StoredReport, TraceComparisonReport } from '../../../electron/common/report/comparison-report.js';
import { ParityError } from '../../../electron/common/errors.js';
import { writeTrace } from '../../../electron/common/trace/write-trace.js';
import { checkFixture, EngineCache } from '../../../electron/engine/comparison/check-fixture.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { withUploadedFilesOnly } from '../../../electron/server/file-inputs.js';
import { Uploads } from '../../../electron/server/uploads.js';
import { header, logitRow, makeStep, makeSteps } from '../common/forensics/synthetic-trace.js';
import { sidecarBytes } from '../common/trace/sidecar-bytes.js';
import { ensureBuilt } from './ensure-built.js';

const root = mkdtempSync(join(tmpdir(), 'import-modules-'));
const engines = new EngineCache();
let host: StudioHost;
let studio: StudioApi;

// Traces parting at step 2; B's sidecar differs there in its second module, layers.1.mlp.
const q = 2;
const stepsA = makeSteps(3, q);
const traceA = writeTrace(header(q, { modules: 'a.modules.safetensors' }), stepsA);
const traceB = writeTrace(header(q, { modules: 'b.modules.safetensors' }), stepsA.map((s) => (s.step >= 2 ? makeStep(s.step, q, logitRow(s.step, 0.5)) : s)));
const sidecar = (shift: number) =>
  sidecarBytes([1, 2, 3].flatMap((n) => [
    { key: `${n}/00000/layers.0.mlp`, shape: [2], values: [n, 1] },
    { key: `${n}/00001/layers.1.mlp`, shape: [2], values: [n, n >= 2 ? 1 + shift : 1] },
  ]));
const modulesA = { name: 'a.modules.safetensors', bytes: sidecar(0) };
const modulesB = { name: 'b.modules.safetensors', bytes: sidecar(0.25) };
const traces = { a: { name: 'a.jsonl', text: traceA }, b: { name: 'b.jsonl', text: traceB } };
const moduleDrill = (report: StoredReport) => (report as TraceComparisonReport).moduleDrill;

beforeAll(() => {
  ensureBuilt();
  host = new StudioHost({ dataDir: join(root, 'data') });
  studio = createDirectClient(host);
}, 120_000);
afterAll(async () => {
  await host?.dispose();
  await engines.close();
  rmSync(root, { recursive: true, force: true });
});

describe('studio trace import with module sidecars', () => {
  it('reports the first differing module, keeps the sidecars with the entry, and exports them as compare-trace --out does', async () => {
    const imported = await studio.importTraces({ ...traces, modulesA, modulesB });
    expect(moduleDrill(imported.report)).toMatchObject({ status: 'found', step: 2, module: { name: 'layers.1.mlp', maxAbsDiff: 0.25 } });
    const kept = join(root, 'data', 'history', imported.historyId);
    expect(new Uint8Array(readFileSync(join(kept, 'b.modules.safetensors')))).toEqual(modulesB.bytes);
    expect(moduleDrill((await studio.openHistory({ id: imported.historyId })).report)?.module?.name).toBe('layers.1.mlp');

    const out = join(root, 'export');
    const exported = await studio.exportFixture({ id: imported.historyId, dir: out });
    expect(exported.files).toEqual(['a.jsonl', 'a.modules.safetensors', 'b.jsonl', 'b.modules.safetensors', 'report.html', 'report.json', 'report.md', 'steps.png']);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('- Module drill-down: step 2: first module whose output differs: layers.1.mlp, max |Δ| 0.25 over 1 element(s)');
    expect(md).toContain(`--modules-a ${out}/a.modules.safetensors --modules-b ${out}/b.modules.safetensors`);
    expect((await checkFixture(out, engines)).problems).toEqual([]);
  }, 60_000);

  it('without the sidecars its headers name: a warning saying which to import, no drill-down', async () => {
    const imported = await studio.importTraces(traces);
    expect(moduleDrill(imported.report)).toBeUndefined();
    expect(imported.report.warnings).toContain(
      'the trace headers name module sidecars, a.modules.safetensors (A) and b.modules.safetensors (B), which were not imported: import both with the traces to name the first module that differs',
    );
    expect(existsSync(join(root, 'data', 'history', imported.historyId, 'a.modules.safetensors'))).toBe(false);
  }, 60_000);

  it('goes on with one sidecar, warning in the words of the CLI; refuses a corrupt one, naming the file', async () => {
    const one = await studio.importTraces({ ...traces, modulesA });
    expect(moduleDrill(one.report)).toBeUndefined();
    expect(one.report.warnings).toContain(
      `only one side has a module sidecar: A (${traces.a.name}) has a.modules.safetensors, B (${traces.b.name}) has none, so there is no module drill-down (record B with modules too, and give both sidecars)`,
    );
    const corrupt = await studio.importTraces({ ...traces, modulesA, modulesB: { name: 'b.modules.safetensors', bytes: modulesB.bytes.slice(0, 12) } }).catch((e: unknown) => e);
    expect(corrupt).toBeInstanceOf(ParityError);
    expect((corrupt as ParityError).message).toMatch(/^b\.modules\.safetensors: header length \d+ bytes runs past the end of the file \(12 bytes\)/);
  }, 60_000);

  it('reads a sidecar by path on the desktop; browser mode refuses a server path for it', async () => {
    const onDisk = join(root, 'b.modules.safetensors');
    writeFileSync(onDisk, modulesB.bytes);
    const byPath = await studio.importTraces({ ...traces, modulesA, modulesB: { path: onDisk } });
    expect(moduleDrill(byPath.report)?.module?.name).toBe('layers.1.mlp');
    const browser = createDirectClient(withUploadedFilesOnly(host, new Uploads(), undefined));
    const refused = await browser.importTraces({ ...traces, modulesA, modulesB: { path: onDisk } }).catch((e: unknown) => e);
    expect((refused as ParityError).message).toMatch(/^modulesB: ".*b\.modules\.safetensors" is a path on the server/);
  }, 60_000);
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/common/trace/write-trace.js';
import { header, logitRow, makeStep, makeSteps } from '../unit/common/forensics/synthetic-trace.js';
import { sidecarBytes, type SidecarTensor } from '../unit/common/trace/sidecar-bytes.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two traces parting at step 3 (B's logit row perturbed there), each naming its sidecar; B's sidecar
// differs from step 3 on in layers.1.mlp (its second module), beyond the default tolerance by 0.5.
const q = 2;
const stepsA = makeSteps(4, q);
const stepsB = stepsA.map((s) => (s.step >= 3 ? makeStep(s.step, q, logitRow(s.step, 0.5)) : s));
const outputs = (side: 'a' | 'b'): SidecarTensor[] =>
  [1, 2, 3, 4].flatMap((n) => [
    { key: `${n}/00000/layers.0.mlp`, shape: [2], values: [n, -n] },
    { key: `${n}/00001/layers.1.mlp`, shape: [2], values: [n, side === 'b' && n >= 3 ? n + 0.5 : n] },
  ]);
for (const side of ['a', 'b'] as const) {
  writeFileSync(join(dir, `${side}.jsonl`), writeTrace(header(q, { modules: `${side}.modules.safetensors` }), side === 'a' ? stepsA : stepsB));
  writeFileSync(join(dir, `${side}.modules.safetensors`), sidecarBytes(outputs(side)));
}
writeFileSync(join(dir, 'plain.jsonl'), writeTrace(header(q), stepsB));
writeFileSync(join(dir, 'lost.jsonl'), writeTrace(header(q, { modules: 'lost.modules.safetensors' }), stepsB));
writeFileSync(join(dir, 'bad.jsonl'), writeTrace(header(q, { modules: 'bad.modules.safetensors' }), stepsB));
writeFileSync(join(dir, 'bad.modules.safetensors'), sidecarBytes(outputs('b'), { schema: 'tts-parity-modules/9' }));
// Sidecars a header names that are not files of the trace's folder (a valid sidecar lies outside it).
const elsewhere = mkdtempSync(join(tmpdir(), 'parity-modules-elsewhere-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));
writeFileSync(join(elsewhere, 'b.modules.safetensors'), sidecarBytes(outputs('b')));
for (const name of ['fifo', 'zero', 'outside']) writeFileSync(join(dir, `${name}.jsonl`), writeTrace(header(q, { modules: `${name}.modules.safetensors` }), stepsB));
execFileSync('mkfifo', [join(dir, 'fifo.modules.safetensors')]);
symlinkSync('/dev/zero', join(dir, 'zero.modules.safetensors'));
symlinkSync(join(elsewhere, 'b.modules.safetensors'), join(dir, 'outside.modules.safetensors'));

const a = join(dir, 'a.jsonl');
const b = join(dir, 'b.jsonl');

describe('parity compare-trace with module sidecars', () => {
  it('names the first differing module at the first divergent step in the summary and report.json', async () => {
    const run = await runParity(['compare-trace', a, b]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Module drill-down: step 3: first module whose output differs: layers.1.mlp, max |Δ| 0.5 over 1 element(s)');
    const json = JSON.parse((await runParity(['compare-trace', a, b, '--json'])).stdout);
    expect(json.moduleDrill).toMatchObject({ status: 'found', step: 3, compared: 2, module: { name: 'layers.1.mlp', seq: { a: 1, b: 1 } } });
  });

  it('--drill-tol and --drill-rel-tol set the tolerance (0.5 then matches)', async () => {
    const json = JSON.parse((await runParity(['compare-trace', a, b, '--json', '--drill-tol', '0.5', '--drill-rel-tol', '0'])).stdout);
    expect(json.moduleDrill).toMatchObject({ status: 'nothing-differs', tolerance: { abs: 0.5, rel: 0 }, compared: 2 });
  });

  it.each([
    ['a sidecar the header names is missing', 'lost', 'lost.modules.safetensors: cannot open the module sidecar (no such file or folder); the trace header names it: was the ModuleRecorder closed (it writes the file on close)? Compare without it with --no-modules'],
    ['a sidecar of another schema', 'bad', 'bad.modules.safetensors: __metadata__.schema is "tts-parity-modules/9", expected "tts-parity-modules/1"'],
    ['a sidecar the header names is a FIFO', 'fifo', 'fifo.modules.safetensors: the module sidecar: not a regular file (a FIFO (named pipe))'],
    ['a sidecar the header names is a link to /dev/zero', 'zero', "zero.modules.safetensors: the module sidecar: a link to /dev/zero, outside the trace's folder"],
    ['a sidecar the header names is a link out of the trace folder', 'outside', `outside.modules.safetensors: the module sidecar: a link to ${join(elsewhere, 'b.modules.safetensors')}, outside the trace's folder`],
  ])('%s: exit 2, one line naming it', async (_what, name, words) => {
    const run = await runParity(['compare-trace', a, join(dir, `${name}.jsonl`)]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(words);
  });

  it('--no-modules ignores the sidecars (a missing one included); --modules-b names another file', async () => {
    const ignored = await runParity(['compare-trace', a, join(dir, 'lost.jsonl'), '--no-modules', '--json']);
    expect(ignored.status, ignored.stderr).toBe(0);
    expect(JSON.parse(ignored.stdout).moduleDrill).toBeUndefined();
    const given = JSON.parse((await runParity(['compare-trace', a, join(dir, 'lost.jsonl'), '--modules-b', join(dir, 'b.modules.safetensors'), '--json'])).stdout);
    expect(given.moduleDrill.module.name).toBe('layers.1.mlp');
  });

  it('one side without a sidecar: a warning, no drill-down, exit 0', async () => {
    const run = await runParity(['compare-trace', a, join(dir, 'plain.jsonl'), '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('warning: only one side has a module sidecar');
    expect(JSON.parse(run.stdout).moduleDrill).toBeUndefined();
  });

  it('--out keeps copies of both sidecars; report.md has the lines and a reproduce command that reads the copies', async () => {
    const out = join(dir, 'fixture');
    const run = await runParity(['compare-trace', a, b, '--out', out, '--drill-tol', '0.25']);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(out, 'b.modules.safetensors'))).toEqual(readFileSync(join(dir, 'b.modules.safetensors')));
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('- Module drill-down: step 3: first module whose output differs: layers.1.mlp');
    expect(md).toContain(`--modules-a ${out}/a.modules.safetensors --modules-b ${out}/b.modules.safetensors --drill-tol 0.25`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(Object.keys(report.integrity.files).sort()).toEqual(['a.jsonl', 'a.modules.safetensors', 'b.jsonl', 'b.modules.safetensors', 'report.md']);
    const again = await runParity(['compare-trace', join(out, 'a.jsonl'), join(out, 'b.jsonl'), '--modules-a', join(out, 'a.modules.safetensors'), '--modules-b', join(out, 'b.modules.safetensors'), '--drill-tol', '0.25', '--json']);
    expect(JSON.parse(again.stdout).moduleDrill.summary).toBe(report.moduleDrill.summary);
    const gate = await runParity(['gate', out]);
    expect(gate.status, gate.stdout + gate.stderr).toBe(0);
  });
});

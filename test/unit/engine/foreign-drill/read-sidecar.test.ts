import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { header } from '../../common/forensics/synthetic-trace.js';
import { sidecarBytes } from '../../common/trace/sidecar-bytes.js';
import { openSidecarFile, sidecarPathOf } from '../../../../electron/engine/foreign-drill/read-sidecar.js';
import { openTraceSidecars } from '../../../../electron/engine/foreign-drill/trace-sidecars.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-sidecar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = join(dir, 'a.modules.safetensors');
writeFileSync(
  good,
  sidecarBytes([
    { key: '1/00000/embed', shape: [2], values: [1, 2] },
    { key: '1/00001/layers.0.mlp', shape: [3], values: [0.25, -4, 1e-7] },
  ]),
);

function refusal(path: string): string {
  try {
    openSidecarFile(path).close();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('module sidecar file reader', () => {
  it('reads each tensor by its offsets', () => {
    const s = openSidecarFile(good);
    try {
      expect(s.entries.map((e) => e.name)).toEqual(['embed', 'layers.0.mlp']);
      expect(Array.from(s.read(s.entries[1]))).toEqual([0.25, -4, Math.fround(1e-7)]);
      expect(Array.from(s.read(s.entries[0]))).toEqual([1, 2]);
    } finally {
      s.close();
    }
  });

  it('refuses a missing file, a folder, an empty file and a hostile header length, naming the file', () => {
    expect(refusal(join(dir, 'none.safetensors'))).toBe(
      `${join(dir, 'none.safetensors')}: cannot open the module sidecar (no such file or folder); the trace header names it: was the ModuleRecorder closed (it writes the file on close)? Compare without it with --no-modules`,
    );
    const folder = join(dir, 'folder.safetensors');
    mkdirSync(folder);
    expect(refusal(folder)).toBe(`${folder}: the module sidecar: not a regular file (a folder)`);
    // A FIFO is opened without blocking and refused on its descriptor (a blocking open waits for a writer).
    const fifo = join(dir, 'fifo.safetensors');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toBe(`${fifo}: the module sidecar: not a regular file (a FIFO (named pipe))`);
    const empty = join(dir, 'empty.safetensors');
    writeFileSync(empty, '');
    expect(refusal(empty)).toContain(`${empty}: 0 bytes, too short`);
    const hostile = join(dir, 'hostile.safetensors');
    writeFileSync(hostile, sidecarBytes([], { length: 2n ** 63n }));
    expect(refusal(hostile)).toContain('over the limit of 100000000');
  });

  it('resolves a header’s modules relative to the trace’s folder', () => {
    expect(sidecarPathOf(join('run', 'a.jsonl'), 'a.modules.safetensors')).toBe(join('run', 'a.modules.safetensors'));
    expect(sidecarPathOf(join('run', 'a.jsonl'), '/abs/x.safetensors')).toBe('/abs/x.safetensors');
  });

  it('opens both sides from the headers; with one side only, a warning and no pair', () => {
    const trace = join(dir, 'a.jsonl');
    const withModules = { file: trace, header: header(2, { modules: 'a.modules.safetensors' }) };
    const without = { file: join(dir, 'b.jsonl'), header: header(2) };
    const both = openTraceSidecars(withModules, withModules);
    expect(both.pair?.a.entries).toHaveLength(2);
    both.close();
    const one = openTraceSidecars(withModules, without);
    expect(one.pair).toBeUndefined();
    expect(one.warning).toBe(`only one side has a module sidecar: A (${trace}) has ${good}, B (${join(dir, 'b.jsonl')}) has none, so there is no module drill-down (record B with modules too, and give both sidecars)`);
    expect(openTraceSidecars(without, without)).toEqual({ close: expect.any(Function) });
    const given = openTraceSidecars(without, without, { a: good, b: good });
    expect(given.pair?.b.file).toBe(good);
    given.close();
  });
});

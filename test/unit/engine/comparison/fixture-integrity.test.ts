import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealReport, sealReportChunks, sha256Hex, verifySeal } from '../../../../electron/engine/comparison/fixture-integrity.js';

const files = { 'a.wav': new Uint8Array([1, 2, 3]), 'b.wav': new Uint8Array([4, 5]), 'report.md': '# hi\n' };
const read = (over: Record<string, Uint8Array | undefined> = {}) => (name: string) =>
  name in over ? over[name] : typeof files[name as keyof typeof files] === 'string' ? new TextEncoder().encode(files[name as keyof typeof files] as string) : (files[name as keyof typeof files] as Uint8Array);

describe('fixture integrity', () => {
  it('records the sha256 of each file (checked against node:crypto directly)', () => {
    const text = sealReport({ verdict: 'identical' }, files);
    const report = JSON.parse(text);
    expect(report.integrity.files['a.wav']).toBe(createHash('sha256').update(new Uint8Array([1, 2, 3])).digest('hex'));
    expect(report.integrity.files['report.md']).toBe(sha256Hex('# hi\n'));
    expect(verifySeal(text, read())).toEqual([]);
  });

  it('detects an edited report, an edited file and a missing file, naming each', () => {
    const text = sealReport({ verdict: 'diverged', seed: 1 }, files);
    expect(verifySeal(text.replace('"seed": 1', '"seed": 2'), read())[0]).toMatch(/^report\.json was changed after it was written/);
    expect(verifySeal(text, read({ 'b.wav': new Uint8Array([4, 6]) }))).toEqual([expect.stringMatching(/^b\.wav was changed after it was written/)]);
    expect(verifySeal(text, read({ 'a.wav': undefined }))).toEqual(['a.wav is missing']);
    expect(verifySeal('{"verdict":"identical"}', read())[0]).toContain('no integrity.reportSha256');
  });

  it('sealed in pieces: the same text, and a report that already had integrity (a re-export) sealed afresh', () => {
    const steps = Array.from({ length: 1000 }, (_, i) => ({ step: i + 1, codes: [i % 5] }));
    const text = sealReportChunks({ verdict: 'diverged', steps }, files).join('');
    expect(text).toBe(sealReport({ verdict: 'diverged', steps }, files));
    expect(verifySeal(text, read())).toEqual([]);
    const resealed = sealReport({ integrity: { files: {}, reportSha256: 'old' }, verdict: 'identical' }, files);
    expect(verifySeal(resealed, read())).toEqual([]);
    expect(JSON.parse(resealed).integrity.reportSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

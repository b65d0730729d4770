import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchWavImportMemory } from '../../../../electron/cli/bench/wav-import-memory.js';
import { wavImportRows } from '../../../../electron/cli/bench/bench-table.js';
import type { BenchResults } from '../../../../electron/cli/bench/bench-results.js';

// The child process imports the built worker step (run `npx tsc -p tsconfig.build.json` first).
const built = pathToFileURL(join(fileURLToPath(new URL('../../../../', import.meta.url)), 'dist', 'electron', 'host', 'tasks', 'compare-wav-bytes.js')).href;

describe('benchWavImportMemory', () => {
  it.runIf(process.platform === 'linux')('measures 2 × 1 MB imports in children: growth, its ratio to the files, seconds', () => {
    const points = benchWavImportMemory([{ fileMb: 1, format: 'pcm16' }, { fileMb: 1, format: 'float32' }], built);
    expect(points?.map((p) => p.format)).toEqual(['pcm16', 'float32']);
    const [p, float] = points!;
    expect(p.fileMb).toBe(1);
    expect(p.filesMb).toBeGreaterThan(1.9);
    expect(float.filesMb).toBeGreaterThan(1.9);
    // The same bytes hold half the samples in float32: the takes, and so the growth, are smaller.
    expect(float.growthMb).toBeLessThan(p.growthMb);
    // The comparison ran on the generated files: B is A at 0.9 (±0.01 LU: pcm16 rounding).
    for (const point of points!) expect(Math.abs(point.loudnessDeltaLU - 20 * Math.log10(0.9))).toBeLessThan(0.01);
    expect(p.growthMb).toBeGreaterThan(0);
    expect(p.growthOverFiles).toBeCloseTo(p.growthMb / p.filesMb, 10);
    expect(p.seconds).toBeGreaterThan(0);
  });

  it('the table marks the 2× target met only when it is, and says n/a off Linux', () => {
    const base = {} as BenchResults;
    const renderBenchTable = (r: BenchResults) => wavImportRows(r).map((row) => row.join(' ')).join('\n');
    const point = (growthOverFiles: number) => ({ fileMb: 20, format: 'pcm16' as const, filesMb: 40, growthMb: 40 * growthOverFiles, growthOverFiles, seconds: 1, loudnessDeltaLU: -0.92 });
    expect(renderBenchTable({ ...base, analysisMemory: { wavImport: [point(2.04)], compareTrace: null } })).toContain('2.04× files, 1.0 s  (target ≤ 2×: not met)');
    expect(renderBenchTable({ ...base, analysisMemory: { wavImport: [point(1.5)], compareTrace: null } })).toContain('(target ≤ 2×: met)');
    expect(renderBenchTable({ ...base, analysisMemory: { wavImport: null, compareTrace: null } })).toContain('n/a (Linux only');
  });
});

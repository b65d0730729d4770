import { describe, expect, it } from 'vitest';
import { GPU_CHECK_FORMAT, GpuCheckSummary, renderGpuMarkdown } from '../../../../electron/common/gpu/gpu-check-summary.js';

// What python/gpu/gpu_check.py's native_figures reads from check.cu's lines (the H200 run of 2026-11-28 for the pick row).
const figures = {
  graph_step_ms: 0.689,
  pick_microbenchmark: [{ V: 3072, settings: 'fixture settings', argmax_us: 4.69, sampled_us: 107.34 }],
  profile: [{ label: 'eager (one launch per operation)', launches: 214, us_per_step: 812.4, kernels: 'rms_norm 36 x 2.10 us, matmul 36 x 3.00 us' }],
  passed: ['native vocoder matches ORT CPU within 0.001000'],
};

const summary = (native: unknown): GpuCheckSummary =>
  GpuCheckSummary.parse({
    format: GPU_CHECK_FORMAT,
    device: { name: 'NVIDIA H200' },
    seconds: 246.2,
    passed: true,
    failed: [],
    missing: [],
    steps: [{ name: 'native-check', status: 'passed', seconds: 3, figures: native }],
  });

describe('renderGpuMarkdown', () => {
  it('shows the numeric figures, the pick microbenchmark as a table and each kernel profile as a line', () => {
    const md = renderGpuMarkdown(summary(figures), []);
    expect(md).toContain('| graph_step_ms | 0.689 |');
    expect(md).toContain('| V = 3072, fixture settings | 4.69 | 107 |');
    expect(md).toContain('Profile, eager (one launch per operation): 214 launches, 812 µs per decode step: rms_norm 36 x 2.10 us, matmul 36 x 3.00 us');
    expect(md).not.toContain('native vocoder matches'); // the PASS lines are not figures
  });

  it('names a list it cannot read instead of printing it half, and still prints the others', () => {
    const md = renderGpuMarkdown(summary({ graph_step_ms: 0.5, pick_microbenchmark: 'not a list', profile: figures.profile }), []);
    expect(md).toContain('| graph_step_ms | 0.500 |');
    expect(md).not.toContain('| pick microbenchmark |');
    expect(md).toContain('pick_microbenchmark: not read (not a list of {V, settings, argmax_us, sampled_us})');
    expect(md).toContain('Profile, eager (one launch per operation): 214 launches');
  });

  it('escapes a | in a setting so the table keeps its columns', () => {
    const md = renderGpuMarkdown(summary({ pick_microbenchmark: [{ V: 8, settings: 'a | b', argmax_us: 1, sampled_us: 2 }] }), []);
    expect(md).toContain('| V = 8, a \\| b | 1 | 2 |');
  });
});

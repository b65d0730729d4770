import { describe, expect, it } from 'vitest';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import type { BenchResults } from '../../../../electron/cli/bench/bench-results.js';
import { BENCH_PROFILES, engineRatios, quantile, summariseProfile, type SynthesisSample } from '../../../../electron/cli/bench/engine-stats.js';
import { renderEngineTable } from '../../../../electron/cli/bench/engine-table.js';

/** A synthetic synthesis whose every step takes `step` ms and whose session.run share is `runShare`. */
function sample(step: number, cpFrame: number, runShare: number, firstAudioMs = 20): SynthesisSample {
  const talkerStepMs = [step, step, 3 * step]; // one slow step: the p90 must see it, the median not
  const codePredictorFrameMs = [cpFrame, cpFrame, cpFrame, cpFrame];
  const prefill = 2;
  const stepTotal = prefill + talkerStepMs.reduce((a, b) => a + b, 0) + codePredictorFrameMs.reduce((a, b) => a + b, 0);
  return {
    totalMs: 100,
    firstAudioMs,
    audioSeconds: 2,
    frames: 4,
    talkerPrefillMs: prefill,
    talkerStepMs,
    codePredictorFrameMs,
    vocoderMs: 10,
    stepSessionRunMs: runShare * stepTotal,
  };
}

describe('bench statistics', () => {
  it('quantile interpolates linearly between order statistics (numpy default)', () => {
    // numpy.quantile([1, 2, 3, 4], 0.9) = 3 + 0.7·(4 − 3) = 3.7; the median of an even list is the mean of the middle two.
    expect(quantile([4, 1, 3, 2], 0.9)).toBeCloseTo(3.7, 12);
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([7], 0.9)).toBe(7);
    expect(() => quantile([], 0.5)).toThrow(RangeError);
  });

  it('summariseProfile: pooled step spreads, per-run medians, JS share = 1 − run time / step time', () => {
    const p = summariseProfile([sample(1, 2, 0.9), sample(1, 2, 0.9, 30), sample(1, 2, 0.9, 40)]);
    // pooled talker steps: six 1s and three 3s -> median 1; p90 at position 7.2 of the sorted nine = 3.
    expect(p.talkerStepMs).toEqual({ median: 1, p90: 3 });
    expect(p.codePredictorFrameMs).toEqual({ median: 2, p90: 2 });
    expect(p.vocoderMsPerAudioSecond).toBe(5); // 10 ms / 2 s
    expect(p.rtf).toBeCloseTo(0.05, 12); // 0.1 s / 2 s
    expect(p.firstAudioMs).toBe(30);
    expect(p.jsOverheadShare).toBeCloseTo(0.1, 12);
    expect(p.talkerPrefillMs).toBe(2);
    expect(p.frames).toBe(4);
  });

  it('ratios are eager/graph and recompute/kv medians (> 1: the second side is faster)', () => {
    const profiles = {
      eager: summariseProfile([sample(1.5, 4, 0.9)]),
      graph: summariseProfile([sample(1, 2, 0.95)]),
      'graph,vocoder=stream': summariseProfile([sample(1, 2, 0.95)]),
      'graph,cache=recompute': summariseProfile([sample(3, 2, 0.95)]),
    };
    expect(engineRatios(profiles)).toEqual({ graphVsEagerTalkerStep: 1.5, graphVsEagerCodePredictorFrame: 2, kvVsRecomputeStep: 3 });
  });

  it('the results JSON carries every field the issue names, and the table marks targets met or not', () => {
    const profiles = Object.fromEntries(BENCH_PROFILES.map((name) => [name, summariseProfile([sample(1, 2, 0.9)])]));
    const results: BenchResults = {
      schema: 'tts-parity-bench/1',
      createdAt: '2025-01-01T00:00:00.000Z',
      machine: { cpus: 2, cpuModel: 'test cpu', node: '20', platform: 'linux-x64', onnxruntime: '1.30.0' },
      engine: { text: 'x', repetitions: 1, warmupRounds: 1, bundleHash: 'h' },
      profiles,
      ratios: { graphVsEagerTalkerStep: 1.2, graphVsEagerCodePredictorFrame: 1.6, kvVsRecomputeStep: 2 },
      memory: { heapGrowthMbOver20: 0.5, rssPeakMb: 200, syntheses: 20, profile: 'graph', gc: true },
      analysis: { pair60sMs: 200, pair60sCpuMs: 200, loudness600sMs: 50, loudness600sCpuMs: 50, ffmpegEbur128600sMs: null, runs: 1 },
    };
    const json = JSON.parse(stringifyReport(results)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(json.machine)).toEqual(expect.arrayContaining(['cpus', 'cpuModel', 'node', 'onnxruntime']));
    for (const name of BENCH_PROFILES) {
      expect(Object.keys(json.profiles[name] as object)).toEqual(
        expect.arrayContaining(['talkerPrefillMs', 'talkerStepMs', 'codePredictorFrameMs', 'vocoderMsPerAudioSecond', 'rtf', 'firstAudioMs', 'jsOverheadShare']),
      );
    }
    expect(Object.keys(json.ratios)).toEqual(['graphVsEagerTalkerStep', 'graphVsEagerCodePredictorFrame', 'kvVsRecomputeStep']);
    expect(Object.keys(json.memory)).toEqual(expect.arrayContaining(['heapGrowthMbOver20', 'rssPeakMb']));
    expect(Object.keys(json.analysis)).toEqual(expect.arrayContaining(['pair60sMs', 'loudness600sMs', 'ffmpegEbur128600sMs']));
    const table = renderEngineTable(results);
    expect(table).toMatch(/graph vs eager talker step 1\.20× \(target ≥ 1\.3: NOT met\)/);
    expect(table).toMatch(/code predictor frame 1\.60× \(≥ 1\.3: met\)/);
    expect(table).toMatch(/heap growth 0\.50 MB \(< 5: met\)/);
    for (const name of BENCH_PROFILES) expect(table).toContain(name);
  });
});

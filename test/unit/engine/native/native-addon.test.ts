import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import type { LoadedBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { Engine } from '../../../../electron/engine/engine.js';
import { loadAddon, projectRoot } from '../../../../electron/engine/native/native-addon.js';
import { loadNativeBackend, NativeRunner } from '../../../../electron/engine/native/native-backend.js';
import { synthesizeOnNative } from '../../../../electron/engine/native/native-engine-hook.js';
import { synthesizeNative } from '../../../../electron/engine/native/native-synthesize.js';
import { readNativeModel } from '../../../../electron/engine/native/native-weights.js';
import { nativeFixtureFiles } from '../../../../electron/engine/native/export-native-fixture.js';
import { writeOutputFolder } from '../../../../electron/host/fs/output-files.js';
import { demoBundle } from '../demo-bundle.js';
import { buildNativeAddon } from './native-build.js';

// The addon and the standalone check are built here when nvcc exists (make keeps them in native/build
// and native/test/build, so a rebuild costs nothing); without nvcc the build script says so and the
// tests assert the "not built" error instead. Either way every test below asserts something.
const root = projectRoot();
const build = buildNativeAddon();
const buildLog = build.log;
const nvccMissing = build.nvccMissing;
const checkBuild = nvccMissing ? undefined : spawnSync('make', ['-C', join(root, 'native', 'test'), `NVCC=${build.nvcc ?? 'nvcc'}`], { encoding: 'utf8', timeout: 300_000 });
console.log(nvccMissing ? 'native tests: nvcc not found here, so the addon is not built: asserting the "not built" errors' : `native tests: ${buildLog.trim().split('\n').pop()}`);

let bundle: LoadedBundle;
let dir: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ bundle, dir, dispose } = await demoBundle());
});
afterAll(() => dispose());

describe('native backend availability', () => {
  it('reports a missing addon as not built, with the path and how to build it', () => {
    const load = loadNativeBackend({ path: '/nonexistent/parity_native.node' });
    expect(load).toEqual({ ok: false, reason: expect.stringContaining('native addon not built: /nonexistent/parity_native.node does not exist (run `npm run build:native`') });
  });

  it('build:native either builds the addon or says nvcc is missing', () => {
    if (nvccMissing) {
      expect(build.status).toBe(1); // --require
      expect(buildLog).toContain('the native CUDA addon is NOT built');
      expect(loadNativeBackend().ok === false && !loadAddon().ok).toBe(true);
    } else {
      expect(build.status, buildLog).toBe(0);
      expect(loadAddon().ok).toBe(true);
    }
  });

  it('loads the addon and reports the CUDA runtime\'s own reason when there is no usable GPU', () => {
    const addon = loadAddon();
    if (!addon.ok) {
      expect(nvccMissing).toBe(true);
      expect(addon.reason).toContain('native addon not built');
      return;
    }
    const probe = addon.addon.probe();
    const load = loadNativeBackend();
    if (probe.ok) {
      expect(load.ok).toBe(true);
    } else {
      // e.g. "cudaGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)"
      expect(probe.error).toMatch(/^cudaGetDeviceCount: .+ \(cudaError\w+\)$|^cudaGetDeviceCount: 0 CUDA devices$/);
      expect(load).toEqual({ ok: false, reason: expect.stringContaining(`loaded, but no CUDA device can be used: ${probe.error}`) });
      // A CUDA session surfaces the same text as a JavaScript Error, never a crash or a silent CPU run.
      const model = readNativeModel(bundle);
      expect(() => new addon.addon.Session({ device: 'cuda', mode: 'graph', config: model.config, weights: model.weights, staleStep: 0 })).toThrow(`no usable CUDA device: ${probe.error}`);
    }
  });

  it('the engine hook refuses backend=native with the reason when it cannot run', async () => {
    const load = loadNativeBackend();
    if (load.ok) return expect(load.backend.device).toBe('cuda');
    const req = { text: 'Hi.', profile: parseProfile('graph,backend=native'), seed: 0, sampling: GREEDY };
    await expect(synthesizeOnNative(bundle, req)).rejects.toThrow(ProfileError);
    await expect(synthesizeOnNative(bundle, req)).rejects.toThrow(`profile "graph,backend=native": backend=native is not available: the native CUDA addon cannot run here: ${load.reason}; use backend=ort`);
  });
});

// Without nvcc there is no addon, so the emulation cannot run either: that is asserted, not skipped.
if (nvccMissing) {
  describe('native kernels in CPU emulation (nvcc missing here)', () => {
    it('emulation needs the addon too: reports it as not built', () => {
      const load = loadNativeBackend({ device: 'emulate' });
      expect(load).toEqual({ ok: false, reason: expect.stringContaining('native addon not built') });
    });
  });
} else describe('native kernels in CPU emulation vs ONNX Runtime CPU', () => {
  let engine: Engine;
  let runner: NativeRunner;
  beforeAll(async () => {
    engine = await Engine.open(dir);
    const load = loadNativeBackend({ device: 'emulate' });
    if (!load.ok) throw new Error(load.reason);
    runner = new NativeRunner(load.backend, bundle);
  });
  afterAll(() => engine?.close());

  const run = async (profile: string, text = 'Native parity.') => ({
    ort: await engine.synthesize({ text, profile: parseProfile(profile), seed: 0, sampling: GREEDY }),
    native: await synthesizeNative(runner, { text, profile: parseProfile(`${profile},backend=native`), seed: 0, sampling: GREEDY }),
  });
  const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => Array.from(a).reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

  // Tolerances as in native/test/check.cu: 1e-4 on logits (measured ~2e-6), 1e-3 on audio (phase drift
  // from ORT's ReduceSum order, measured 3e-5 .. 7e-4 on the demo bundle).
  it.each(['eager', 'graph', 'graph,vocoder=stream'])('%s: greedy codes identical, logits and audio within tolerance', async (profile) => {
    const { ort, native } = await run(profile);
    expect(Array.from(native.codes)).toEqual(Array.from(ort.codes));
    for (let s = 0; s < ort.steps.length; s++) {
      const [a, b] = [ort.steps[s].logits, native.steps[s].logits];
      expect(Math.abs(a.max - b.max) + Math.abs(a.mean - b.mean) + Math.abs(a.std - b.std), `step ${s + 1}`).toBeLessThan(1e-4);
    }
    expect(maxAbs(native.audio, ort.audio)).toBeLessThan(1e-3);
    expect(native.executionProvider).toBe('cpu');
    expect(native.profile).toBe(`${parseProfile(`${profile},backend=native`).text}`);
  });

  it('stale-feedback@3 reproduces the ORT fault: same codes as ORT with the fault, first difference from clean at step 3', async () => {
    const faulty = await run('graph,fault=stale-feedback@3');
    const clean = await run('graph');
    expect(Array.from(faulty.native.codes)).toEqual(Array.from(faulty.ort.codes));
    const first = faulty.native.steps.findIndex((r, i) => Math.abs(r.logits.mean - clean.native.steps[i].logits.mean) > 1e-4) + 1;
    expect(first).toBe(3);
  });

  it('addon errors arrive as JavaScript errors naming the problem', () => {
    const model = readNativeModel(bundle);
    const load = loadNativeBackend({ device: 'emulate' });
    if (!load.ok) throw new Error(load.reason);
    const bad = { ...model, weights: { ...model.weights, 'talker/norm.weight': { data: new Float32Array(32), dims: [32] } } };
    expect(() => load.backend.openSession(bad, 'eager', 0)).toThrow('weight "talker/norm.weight": expected [64], found [32]');
    const session = load.backend.openSession(model, 'graph', 0);
    const out = { codes: new Int32Array(8), talkerLogits: new Float32Array(129), talkerHidden: new Float32Array(64), cpLogits: new Float32Array(7 * 128) };
    expect(() => session.decode(2, out)).toThrow('decode: step 2 out of order (expected 2, after a prefill)');
    expect(() => session.prefill(Int32Array.of(256, 300), out)).toThrow('prefill: token 1 = 300 outside the text rows [0, 257)');
    expect(() => session.prefill(Int32Array.of(256), { ...out, codes: new Int32Array(3) })).toThrow('out.codes: expected 8 elements, found 3');
  });

  it('standalone check: exit 3 without a GPU (or passes with one), all checks pass under --emulate', async () => {
    expect(checkBuild?.status, `${checkBuild?.stdout}${checkBuild?.stderr}`).toBe(0);
    const fixture = await mkdtemp(join(tmpdir(), 'native-fixture-'));
    try {
      await writeOutputFolder('fixture', fixture, await nativeFixtureFiles(dir, 2), { force: true });
      const bin = join(root, 'native', 'test', 'build', 'check');
      const gpu = spawnSync(bin, [fixture], { encoding: 'utf8', timeout: 120_000 });
      const probe = loadAddon();
      if (probe.ok && !probe.addon.probe().ok) {
        expect(gpu.status).toBe(3);
        expect(gpu.stdout).toMatch(/^NO GPU: cudaGetDeviceCount: /);
      } else {
        expect(gpu.status, gpu.stdout).toBe(0);
      }
      const emu = spawnSync(bin, [fixture, '--emulate'], { encoding: 'utf8', timeout: 120_000 });
      expect(emu.status, emu.stdout).toBe(0);
      expect(emu.stdout).toContain('eager: first divergent step: none');
      expect(emu.stdout).toContain('graph: first divergent step: none');
      expect(emu.stdout).toContain('PASS native graph with stale-feedback@2 diverges from the clean reference at exactly step 2 (found 2)');
      expect(emu.stdout).toContain('eager sampled: first divergent step: none');
      expect(emu.stdout).toContain('graph sampled: first divergent step: none');
      expect(emu.stdout).toContain('PASS native graph sampled matches ORT CPU sampled (codes identical, every step within tolerance)');
      // Demo architecture (docs/native-backend.md). Graph profile (fused): one kernel per decoder layer pass (4
      // talker layers, 7 code-predictor passes of 2; the heads and greedy argmaxes inside the last layers) and
      // the feedback update = 19; sampled adds 8 pick blocks (SamplePickK) = 27. Eager profile (one launch per
      // operation, as PyTorch eager): 214, bit-identical outputs.
      expect(emu.stdout).toContain('kernels per decode step: eager 214 launches, graph 19 nodes');
      expect(emu.stdout).toContain('repetition penalty 1.1; kernels per decode step: eager 214 launches, graph 27 nodes');
      expect(emu.stdout).toContain('fused: kernels per decode step: greedy 19 (unfused 214), sampled 27 (unfused 214)');
      expect(emu.stdout).toContain('PASS fused decode-step kernels bit-identical to the unfused launches (greedy and sampled, every step\'s codes, logits, hidden)');
      expect(emu.stdout).toContain('PASS sampled decode step <= 60 kernels (found 27)');
      expect(emu.stdout).toContain('timing: sampling microbenchmark skipped under --emulate (GPU only)');
      expect(emu.stdout).toContain('pick: GPU against emulation skipped under --emulate (GPU only)');
      // SamplePickK's barriers on the device, counted in emulation (docs/native-backend.md, Sampling): 101 at
      // V = 3 072 and 90 at V = 128 with the fixture's settings before the warp scans and the ranked cuts.
      const barriers = (V: number, what: string) => Number(new RegExp(`^pick: barriers per sampled pick V=${V} \\(${what}\\): (\\d+)`, 'm').exec(emu.stdout)?.[1]);
      expect(barriers(3072, 'fixture settings')).toBeLessThanOrEqual(23);
      expect(barriers(128, 'fixture settings')).toBeLessThanOrEqual(11);
      expect(barriers(3072, 'temperature 1 only')).toBeLessThanOrEqual(6);
      // The sampled reference is not the greedy one (else the check would test nothing new).
      const codes = (name: string) => readFileSync(join(fixture, name), 'utf8');
      expect(codes('reference-sampled-codes.txt')).not.toBe(codes('reference-codes.txt'));
      expect(emu.stdout).toContain('ALL PASSED');
    } finally {
      await rm(fixture, { recursive: true, force: true });
    }
  });
});

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SamplingParams } from '../../common/sampling/types.js';
import type { NativeConfig, NativeWeights } from './native-weights.js';

/** What `probe()` of native/src/addon.cc reports about the CUDA runtime and driver. */
export interface CudaProbe {
  ok: boolean;
  deviceCount: number;
  /** 1000·major + 10·minor, e.g. 13000; driverVersion 0 = no driver. */
  runtimeVersion: number;
  driverVersion: number;
  deviceName: string;
  /** The CUDA runtime's own error text when ok is false. */
  error: string;
}

/** Views the addon copies one step's results into. */
export interface NativeStepOutput {
  codes: Int32Array;
  talkerLogits: Float32Array;
  talkerHidden: Float32Array;
  cpLogits: Float32Array;
}

export interface NativeSessionOptions {
  /** cuda: the GPU; emulate: the same kernel bodies run one index at a time on the CPU (tests, checks). */
  device: 'cuda' | 'emulate';
  mode: 'eager' | 'graph';
  config: NativeConfig;
  weights: NativeWeights;
  /** stale-feedback@N; 0 = none. */
  staleStep: number;
}

/** The sampling settings of one synthesis and its seed (Philox key), as the addon's setSampling takes them. */
export interface NativeSampling extends SamplingParams {
  seed: number;
}

export interface NativeSession {
  /** Kept until changed; greedy with repetitionPenalty 1 runs the argmax kernel, anything else the sampled pick (SamplePickK). */
  setSampling(s: NativeSampling): void;
  /** Fault stale-feedback@N for the next synthesis; 0 = none. Kept until changed. */
  setStaleStep(step: number): void;
  prefill(ids: Int32Array, out: NativeStepOutput): number;
  decode(step: number, out: NativeStepOutput): number;
  vocode(codes: Int32Array, frames: number, context: number, phase0: number, noiseStart: number, audio: Float32Array): number;
  decodeKernelCount(): number;
  graphCaptured(): boolean;
  /** Frees the device memory now; returns the bytes released (0 when already closed). Later calls throw. */
  close(): number;
  closed(): boolean;
}

/** The sampler's arithmetic as the kernels do it, for tests against Math.exp and uniform.ts. */
export interface NativeTesting {
  jsExp(x: Float64Array): Float64Array;
  uniform(seed: number, step: number, codebook: number): number;
  /**
   * One pick over `logits` by the session's sampled pick (SamplePickK, one block), the draw
   * Philox at (step, codebook) with the sampling's seed, the ids in `history` penalised; skip: an id
   * masked to -inf (-1: none). device defaults to 'emulate'.
   */
  pick(logits: Float32Array, skip: number, sampling: NativeSampling, step: number, codebook: number, history: Int32Array, device?: 'emulate' | 'cuda'): number;
  /** One greedy pick over `logits` by the argmax reduce a greedy session launches; skip: an id masked to -inf (-1: none). */
  argmax(logits: Float32Array, skip: number, device?: 'emulate' | 'cuda'): number;
}

export interface NativeAddon {
  probe(): CudaProbe;
  testing: NativeTesting;
  Session: new (o: NativeSessionOptions) => NativeSession;
}

/** Folder holding native/Makefile: walks up from this module (dist/ or the TypeScript source). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'native', 'Makefile'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`native backend: no native/Makefile above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** PARITY_NATIVE_ADDON, else <project>/native/build/parity_native.node. */
export function addonPath(): string {
  return process.env.PARITY_NATIVE_ADDON ? resolve(process.env.PARITY_NATIVE_ADDON) : join(projectRoot(), 'native', 'build', 'parity_native.node');
}

export type AddonLoad = { ok: true; addon: NativeAddon; path: string } | { ok: false; reason: string; path: string };

/** Loads the compiled addon, or says why not (not built, or the loader's own error text). */
export function loadAddon(path = addonPath()): AddonLoad {
  if (!existsSync(path)) {
    return { ok: false, path, reason: `native addon not built: ${path} does not exist (run \`npm run build:native\`, which needs nvcc from CUDA 12 or 13)` };
  }
  try {
    const addon = createRequire(import.meta.url)(path) as NativeAddon;
    if (typeof addon.probe !== 'function' || typeof addon.Session !== 'function') {
      return { ok: false, path, reason: `native addon ${path} does not export probe() and Session` };
    }
    return { ok: true, addon, path };
  } catch (error) {
    return { ok: false, path, reason: `native addon ${path} failed to load: ${(error as Error).message}` };
  }
}

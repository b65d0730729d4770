import { ProfileError } from '../../common/errors.js';
import type { ExecutionProfile } from '../../common/profile/types.js';
import type { SamplingParams } from '../../common/sampling/types.js';
import type { LoadedBundle } from '../bundle/load-bundle.js';
import type { SynthesisOptions, SynthesisRequest, SynthesisResult } from '../types.js';
import { loadNativeBackend, NativeRunner, type NativeBackend } from './native-backend.js';
import { checkNativeProfile } from './native-profile.js';
import { synthesizeNative } from './native-synthesize.js';

let backend: NativeBackend | undefined;
const runners = new WeakMap<LoadedBundle, NativeRunner>();

/** The profile checked and the addon loaded, or the ProfileError saying why backend=native cannot run it here. */
export function nativeBackendFor(profile: ExecutionProfile, sampling: SamplingParams): NativeBackend {
  checkNativeProfile(profile, sampling);
  if (!backend) {
    const load = loadNativeBackend();
    if (!load.ok) throw new ProfileError(`profile "${profile.text}": backend=native is not available: the native CUDA addon cannot run here: ${load.reason}; use backend=ort`, profile.text);
    backend = load.backend;
  }
  return backend;
}

/**
 * What Engine.synthesize calls for backend=native: the profile is checked, then the addon is loaded
 * (once per process when it works; a failure is re-checked on the next call, so building it later
 * needs no restart) and the synthesis runs on the GPU. Unavailable -> ProfileError with the reason.
 */
export async function synthesizeOnNative(bundle: LoadedBundle, req: SynthesisRequest, opts: SynthesisOptions = {}): Promise<SynthesisResult> {
  const loaded = nativeBackendFor(req.profile, req.sampling);
  let runner = runners.get(bundle);
  if (!runner) {
    runner = new NativeRunner(loaded, bundle);
    runners.set(bundle, runner);
  }
  return synthesizeNative(runner, req, opts);
}

/**
 * Engine.close: releases the device memory of the bundle's native sessions now (deterministically,
 * not when the garbage collector finalises them). Returns the bytes freed; 0 when none were open.
 */
export function closeNative(bundle: LoadedBundle): number {
  const runner = runners.get(bundle);
  if (!runner) return 0;
  runners.delete(bundle);
  return runner.close();
}

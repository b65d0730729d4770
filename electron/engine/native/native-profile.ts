import { InputError, ProfileError } from '../../common/errors.js';
import type { ExecutionProfile } from '../../common/profile/types.js';
import type { SamplingParams } from '../../common/sampling/types.js';

/**
 * What backend=native implements: presets eager and graph, cache=kv, precision=fp32, vocoder full or
 * stream, faults stale-feedback@N and no-left-context, greedy decoding (the argmax runs on the device
 * inside the captured step). Anything else is refused with the reason, never run some other way.
 */
export function checkNativeProfile(profile: ExecutionProfile, sampling: SamplingParams): void {
  const refuse = (what: string): never => {
    throw new ProfileError(`profile "${profile.text}": backend=native does not implement ${what}`, profile.text);
  };
  if (profile.cache !== 'kv') refuse(`cache=${profile.cache} (only cache=kv: the static KV buffer)`);
  if (profile.precision !== 'fp32') refuse(`precision=${profile.precision} (only fp32 kernels)`);
  if (profile.ep !== 'cpu') refuse(`ep=${profile.ep} (ep chooses ONNX Runtime's execution provider; backend=native always runs its own CUDA kernels)`);
  for (const f of profile.faults) {
    if (f.kind !== 'stale-feedback' && f.kind !== 'no-left-context') refuse(`fault=${f.kind} (only stale-feedback@N and no-left-context)`);
    if (f.kind === 'stale-feedback' && f.step < 2) refuse(`fault=stale-feedback@${f.step} (step 1 is the prefill, which has no feedback; use N >= 2)`);
  }
  if (sampling.mode !== 'greedy') {
    throw new InputError(`sampling mode "${sampling.mode}": backend=native decodes greedily on the device (argmax inside the captured step); use greedy or backend=ort`, 'sampling.mode');
  }
}

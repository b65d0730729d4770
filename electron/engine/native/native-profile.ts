import { InputError, ProfileError } from '../../common/errors.js';
import { formatBucket } from '../../common/profile/bucket.js';
import type { ExecutionProfile } from '../../common/profile/types.js';
import { checkSample } from '../../common/sampling/sample-token.js';
import type { SamplingParams } from '../../common/sampling/types.js';

/**
 * What backend=native implements: presets eager and graph, cache=kv, precision=fp32, vocoder full or
 * stream, faults stale-feedback@N and no-left-context, greedy and sampled decoding (temperature, top-k,
 * top-p, repetition penalty: the pick runs on the device inside the captured step, drawing from the same
 * Philox stream as the ORT backend). Anything else is refused with the reason, never run some other way.
 */
export function checkNativeProfile(profile: ExecutionProfile, sampling: SamplingParams): void {
  const refuse = (what: string): never => {
    throw new ProfileError(`profile "${profile.text}": backend=native does not implement ${what}`, profile.text);
  };
  if (profile.cache !== 'kv') refuse(`cache=${profile.cache} (only cache=kv: the static KV buffer)`);
  if (profile.precision !== 'fp32') refuse(`precision=${profile.precision} (only fp32 kernels)`);
  if (profile.ep !== 'cpu') refuse(`ep=${profile.ep} (ep chooses ONNX Runtime's execution provider; backend=native always runs its own CUDA kernels)`);
  if (profile.bucket !== undefined) refuse(`bucket=${formatBucket(profile.bucket)} (the native vocoder decodes each chunk at its own size)`);
  for (const f of profile.faults) {
    if (f.kind !== 'stale-feedback' && f.kind !== 'no-left-context') refuse(`fault=${f.kind} (only stale-feedback@N and no-left-context)`);
    if (f.kind === 'stale-feedback' && f.step < 2) refuse(`fault=stale-feedback@${f.step} (step 1 is the prefill, which has no feedback; use N >= 2)`);
  }
  if (sampling.mode !== 'greedy' && sampling.mode !== 'sample') throw new InputError(`sampling mode "${String(sampling.mode)}": expected greedy or sample`, 'sampling.mode');
  if (sampling.mode === 'sample') checkSample(sampling, 0);
  if (sampling.repetitionPenalty !== 1 && !(sampling.repetitionPenalty > 0)) {
    throw new InputError(`sampling: repetitionPenalty must be > 0, found ${sampling.repetitionPenalty}`, 'sampling.repetitionPenalty');
  }
}

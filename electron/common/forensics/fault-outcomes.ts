import { z } from 'zod';
import { formatBucket, staleTailBoundaries } from '../profile/bucket.js';
import { formatFault } from '../profile/parse-profile.js';
import type { ExecutionProfile, Fault } from '../profile/types.js';

/** Whether a requested fault acted on a synthesis, and, when it did not, why (docs/faults.md). */
export const FaultOutcome = z.object({
  /** The fault as written in the profile, e.g. "stale-feedback@200". */
  fault: z.string(),
  applied: z.boolean(),
  /** Why it did not act, e.g. "step 200 never ran: the synthesis ended after 32 steps". */
  reason: z.string().optional(),
});
export type FaultOutcome = z.infer<typeof FaultOutcome>;

const stepsLeft = (step: number, frames: number): string | null =>
  step > frames ? `step ${step} never ran: the synthesis ended after ${frames} step${frames === 1 ? '' : 's'}` : null;

function whyNot(f: Fault, profile: ExecutionProfile, frames: number, chunkFrames: number, leftContextFrames: number): string | null {
  switch (f.kind) {
    case 'stale-feedback':
      if (f.step < 2) return 'step 1 is the text prefill: it has no audio feedback to make stale';
      return stepsLeft(f.step, frames);
    case 'nan':
    case 'nondeterministic':
      return stepsLeft(f.step, frames);
    case 'batch-gather':
      if ((profile.batch ?? 1) === 1) return 'at batch=1 there is no other row: the gather picks the only row, so the output is that of no fault';
      return stepsLeft(f.step, frames);
    case 'no-left-context':
      if (profile.vocoder !== 'stream') return 'it acts only under vocoder=stream';
      if (frames <= chunkFrames) return `the synthesis had one vocoder chunk (${frames} frames, ${chunkFrames} per chunk) and the first chunk has no left context anyway`;
      return null;
    case 'stale-tail':
      if (profile.vocoder !== 'stream' || profile.bucket === undefined) return 'it acts only under vocoder=stream with bucket=K';
      if (staleTailBoundaries(frames, { chunkFrames, leftContextFrames }, profile.bucket).length === 0) {
        return `no chunk before the last was padded (${frames} frames, ${chunkFrames} per chunk, up to ${leftContextFrames} of left context, bucket=${formatBucket(profile.bucket)})`;
      }
      return null;
    case 'fp16-overflow':
      if (profile.precision !== 'fp16') return `it acts only under precision=fp16 (under ${profile.precision} the 2^16 scaling is exact: the output is bit-identical to no fault)`;
      return null;
  }
}

/** One outcome per fault of `profile`, for a synthesis that ran `frames` steps (the vocoder's chunking: stream-chunk.ts). */
export function faultOutcomes(profile: ExecutionProfile, frames: number, chunkFrames: number, leftContextFrames = 0): FaultOutcome[] {
  return profile.faults.map((f) => {
    const reason = whyNot(f, profile, frames, chunkFrames, leftContextFrames);
    return reason === null ? { fault: formatFault(f), applied: true } : { fault: formatFault(f), applied: false, reason };
  });
}

/** One line per fault that did not act, e.g. "B (graph,fault=nan@talker:4): fault nan@talker:4 was not applied: step 4 never ran: …". */
export function unappliedFaultLines(sides: { label: string; profile: string; faults?: FaultOutcome[] }[]): string[] {
  return sides.flatMap((s) =>
    (s.faults ?? []).filter((f) => !f.applied).map((f) => `${s.label} (${s.profile}): fault ${f.fault} was not applied: ${f.reason}`),
  );
}

/** True when faults were asked for and not one of them acted (compare exits 2: the comparison tests nothing it was asked to). */
export function noFaultApplied(outcomes: FaultOutcome[]): boolean {
  return outcomes.length > 0 && outcomes.every((f) => !f.applied);
}

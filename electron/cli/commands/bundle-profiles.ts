import { parseProfile } from '../../common/profile/parse-profile.js';
import { exportKeys } from '../../engine/plan.js';
import type { BundleInfo } from '../../engine/types.js';

/**
 * The profiles whose exports differ (docs/profiles.md, "Which exports a profile needs"); vocoder=stream,
 * ep=, backend and the faults other than fp16-overflow run on the exports of the profile they modify.
 */
const BASES = ['eager', 'eager,cache=recompute', 'graph', 'graph,cache=recompute'].flatMap((p) => [p, `${p},precision=fp16`]);

export interface RunnableProfiles {
  /** Profiles this bundle has every export for, canonical text. */
  runs: string[];
  /** Of those, the ones that can also take fault=fp16-overflow (its `*-fp16-overflow` talker exports). */
  fp16Overflow: string[];
  /** The others, each with the first export it lacks, e.g. `graph,precision=fp16 (no talker export "graph-fp16")`. */
  missing: string[];
}

function lacks(info: BundleInfo, text: string): string | null {
  const keys = exportKeys(parseProfile(text));
  if (!info.talker.exports.includes(keys.talker)) return `no talker export "${keys.talker}"`;
  if (info.encoder && !info.encoder.exports.includes(keys.codePredictor)) return `no encoder export "${keys.codePredictor}"`;
  if (info.codePredictor && !info.codePredictor.exports.includes(keys.codePredictor)) return `no code-predictor export "${keys.codePredictor}"`;
  if (!info.vocoder.exports.includes(keys.vocoder)) return `no vocoder export "${keys.vocoder}"`;
  return null;
}

/** Which profiles a bundle can run, from its export keys and the engine's own key rule (plan.ts `exportKeys`). */
export function runnableProfiles(info: BundleInfo): RunnableProfiles {
  const result: RunnableProfiles = { runs: [], fp16Overflow: [], missing: [] };
  for (const base of BASES) {
    const text = parseProfile(base).text;
    const why = lacks(info, text);
    if (why !== null) {
      result.missing.push(`${text} (${why})`);
      continue;
    }
    result.runs.push(text);
    if (lacks(info, `${text},fault=fp16-overflow`) === null) result.fp16Overflow.push(text);
  }
  return result;
}

/** The lines `parity bundle check` prints. */
export function runnableProfileLines(info: BundleInfo): string[] {
  const p = runnableProfiles(info);
  const lines = [
    'profiles it can run (each also with vocoder=stream, ep=cuda and the faults; docs/profiles.md "Which exports a profile needs"):',
    `  ${p.runs.length ? p.runs.join(', ') : 'none'}`,
  ];
  if (p.runs.length) lines.push(`  fault=fp16-overflow (needs the *-fp16-overflow talker exports): ${p.fp16Overflow.length ? p.fp16Overflow.join(', ') : 'none'}`);
  if (p.missing.length) lines.push(`  cannot run: ${p.missing.join('; ')}`);
  return lines;
}

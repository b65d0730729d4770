import type { FaultOutcome } from '../../../../electron/common/forensics/fault-outcomes.js';
import { noFaultApplied, unappliedFaultLines } from '../../../../electron/common/forensics/fault-outcomes.js';
import type { EndpointComparison } from '../../../../electron/common/report/endpoint-exchange.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';
import type { Measuring } from './comparison-slice.js';

/** What the report says about where A and B came from (each report kind carries its own part). */
interface SourceParts {
  kind?: string;
  rerun?: { profileA: string; profileB: string };
  a?: { profile: string; faults?: FaultOutcome[] };
  b?: { profile: string; faults?: FaultOutcome[] };
  sources?: { a: { path?: string }; b: { path?: string } };
  traces?: { a: { file: string }; b: { file: string } };
  endpoints?: EndpointComparison;
}

export interface SideNames {
  /** profiles: a synthesis of the form's kind; endpoints: two servers asked by the form; wavs / traces: files imported, not made with the form. */
  kind: 'profiles' | 'endpoints' | 'wavs' | 'traces';
  a: string;
  b: string;
  /** The WAVs that came with imported traces. */
  wavA?: string;
  wavB?: string;
  /** Endpoints: what the servers' answers say beside the names (first-audio times, how the pair was compared). */
  detail?: string;
}

const basename = (p: string | undefined) => (p ? (p.split(/[\\/]/).pop() ?? p) : undefined);

const sideNames = memoByRef((r: SourceParts): SideNames => {
  if (r.endpoints) {
    const e = r.endpoints;
    const how = e.comparedAs === 'traces' ? 'compared as a trace pair' : `compared as a WAV pair (no traces: ${e.why ?? 'none found'})`;
    const detail = `first audio A ${e.a.response.firstAudioMs.toFixed(0)} ms, B ${e.b.response.firstAudioMs.toFixed(0)} ms · ${how}`;
    return { kind: 'endpoints', a: e.a.endpoint, b: e.b.endpoint, detail };
  }
  if (r.kind === 'profiles') return { kind: 'profiles', a: r.rerun?.profileA ?? r.a?.profile ?? 'A', b: r.rerun?.profileB ?? r.b?.profile ?? 'B' };
  if (r.kind === 'traces' && r.traces) {
    const wavs = r.sources && { wavA: basename(r.sources.a.path), wavB: basename(r.sources.b.path) };
    return { kind: 'traces', a: basename(r.traces.a.file)!, b: basename(r.traces.b.file)!, ...wavs };
  }
  return { kind: 'wavs', a: basename(r.sources?.a.path) ?? 'A', b: basename(r.sources?.b.path) ?? 'B' };
});

export interface FaultWarning {
  /** True when faults were asked for and none acted: the comparison tests nothing it was asked to. */
  none: boolean;
  /** One line per fault that did not act, as the CLI prints them (with the reason). */
  lines: string[];
}

const faultWarning = memoByRef((r: SourceParts): FaultWarning | undefined => {
  if (!r.a || !r.b) return undefined;
  const lines = unappliedFaultLines([
    { label: 'A', profile: r.a.profile, faults: r.a.faults },
    { label: 'B', profile: r.b.profile, faults: r.b.faults },
  ]);
  if (lines.length === 0) return undefined;
  return { none: noFaultApplied([...(r.a.faults ?? []), ...(r.b.faults ?? [])]), lines };
});

const report = (s: StudioState) => s.comparison?.report as SourceParts | undefined;
/** An import being measured has no report yet: its names are the files picked. */
const measuringNames = memoByRef((m: Measuring): SideNames => ({ kind: 'wavs', a: basename(m.names[0])!, b: basename(m.names[1])! }));

export const sidesSelectors = {
  /** Names of A and B: profiles for a synthesis, file names for an import. */
  names: (s: StudioState): SideNames | undefined => {
    if (s.measuring) return measuringNames(s.measuring);
    const r = report(s);
    return r ? sideNames(r) : undefined;
  },
  /** Faults asked for in a profile that never acted (docs/faults.md), or undefined when all acted or none was asked. */
  faultWarning: (s: StudioState): FaultWarning | undefined => {
    const r = report(s);
    return r ? faultWarning(r) : undefined;
  },
};

/** What a report says about imported traces or WAVs (a synthesized comparison's source is the bundle). */
interface ShownParts {
  kind?: string;
  traces?: { a: { header: TraceHeaderPart }; b: { header: TraceHeaderPart } };
  metrics?: { sampleRate?: number };
  /** Present when the pair came from two speech endpoints (report.json `endpoints`), not from files. */
  endpoints?: unknown;
}
interface TraceHeaderPart {
  engine: string;
  q: number;
  frameRate: number;
  sampleRate: number;
}

/** The header's words for a comparison that did not come from the bundle: what it is, then its facts. */
export interface ShownSource {
  name: string;
  facts: string[];
}

const both = (a: string | number, b: string | number, unit = '') => (a === b ? `${a}${unit}` : `A ${a}${unit} / B ${b}${unit}`);

/**
 * The header for the comparison on screen when it is not a synthesis of the bundle: imported traces or two
 * endpoints' traces (engine, codebooks, frame and sample rates, each side's when they differ), imported WAVs
 * or two endpoints' audio (sample rate); undefined for a synthesis (the bundle's own line says what is shown)
 * or no comparison.
 */
export function shownSource(report: unknown): ShownSource | undefined {
  const r = report as ShownParts | undefined;
  if (!r || r.kind === 'profiles') return undefined;
  if (r.kind === 'traces' && r.traces) {
    const a = r.traces.a.header;
    const b = r.traces.b.header;
    return { name: r.endpoints ? "Two endpoints' traces" : 'Imported traces', facts: [both(a.engine, b.engine), `${both(a.q, b.q)} codebooks`, both(a.frameRate, b.frameRate, ' frames/s'), both(a.sampleRate, b.sampleRate, ' Hz')] };
  }
  if (r.kind === undefined) return { name: r.endpoints ? "Two endpoints' audio" : 'Imported WAVs', facts: r.metrics?.sampleRate ? [`${r.metrics.sampleRate} Hz`] : [] };
  return undefined;
}

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
  codebookDelays?: number[];
  vocoderChunks?: unknown[];
}

/** The header's words for a comparison that did not come from the bundle: what it is, then its facts. */
export interface ShownSource {
  name: string;
  facts: string[];
  /** The facts a narrow window leaves out of the header line (the rates); the header's title keeps every fact. */
  wideOnly?: string[];
}

const both = (a: string | number, b: string | number, unit = '') => (a === b ? `${a}${unit}` : `A ${a}${unit} / B ${b}${unit}`);

/** "codebook delays 0–7" for the one-step-each pattern (Higgs Audio, MusicGen), else the list. */
function delayWords(delays: number[]): string {
  const stepwise = delays.every((d, k) => d === k);
  return `codebook delays ${stepwise && delays.length > 2 ? `0–${delays.length - 1}` : delays.join(', ')}`;
}

/** How the side's vocoder made its audio: whole, in N chunks, or not recorded. */
const chunking = (h: TraceHeaderPart): string => (!h.vocoderChunks ? 'chunks not recorded' : h.vocoderChunks.length === 1 ? 'whole' : `${h.vocoderChunks.length} chunks`);

/**
 * The header for the comparison on screen when it is not a synthesis of the bundle: imported traces or two
 * endpoints' traces (engine, codebooks, their delay pattern, frame and sample rates, each side's when they differ,
 * and how each side's vocoder chunked its audio when a trace says), imported WAVs or two endpoints' audio (sample
 * rate); undefined for a synthesis (the bundle's own line says what is shown) or no comparison.
 */
export function shownSource(report: unknown): ShownSource | undefined {
  const r = report as ShownParts | undefined;
  if (!r || r.kind === 'profiles') return undefined;
  if (r.kind === 'traces' && r.traces) {
    const a = r.traces.a.header;
    const b = r.traces.b.header;
    const facts = [both(a.engine, b.engine), `${both(a.q, b.q)} codebooks`];
    if (a.codebookDelays) facts.push(delayWords(a.codebookDelays));
    if (a.vocoderChunks || b.vocoderChunks) facts.push(`vocoder ${both(chunking(a), chunking(b))}`);
    const rates = [both(a.frameRate, b.frameRate, ' frames/s'), both(a.sampleRate, b.sampleRate, ' Hz')];
    return { name: r.endpoints ? "Two endpoints' traces" : 'Imported traces', facts: [...facts, ...rates], wideOnly: rates };
  }
  if (r.kind === undefined) return { name: r.endpoints ? "Two endpoints' audio" : 'Imported WAVs', facts: r.metrics?.sampleRate ? [`${r.metrics.sampleRate} Hz`] : [] };
  return undefined;
}

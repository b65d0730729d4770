import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import type { VocoderChunk } from '../trace/trace-format.js';
import { frameOfSample } from './audio-divergence.js';

/**
 * Where two renderings' audio differs, chunk by chunk of the vocoder that made them (trace header
 * `vocoderChunks`: a streamed vocoder's chunks as its stage produced them). The seams are every chunk start after
 * the first on either side; the audio is cut at all of them, so a whole decode (one chunk) against a streamed one
 * is measured in the streamed side's chunks. Frames are 1-based; frame f holds samples [(f−1)·sr/fr, f·sr/fr).
 */

export const ChunkSeam = z.object({
  /** 1-based frame that starts the chunk after the seam. */
  frame: z.number().int().positive(),
  sample: z.number().int().nonnegative(),
  timeSec: JsonNumber,
  /** Whose vocoder cut its audio here. */
  sides: z.array(z.enum(['A', 'B'])).min(1),
});
export type ChunkSeam = z.infer<typeof ChunkSeam>;

export const ChunkAudio = z.object({
  /** 1-based, in order. */
  chunk: z.number().int().positive(),
  firstFrame: z.number().int().positive(),
  lastFrame: z.number().int().positive(),
  startSample: z.number().int().nonnegative(),
  /** Exclusive. */
  endSample: z.number().int().nonnegative(),
  /** Some sample differs beyond the audio tolerance (or lies past one side's end). */
  differs: z.boolean(),
  /** Largest |A − B| over the chunk's samples both sides have. */
  maxAbs: JsonNumber,
});
export type ChunkAudio = z.infer<typeof ChunkAudio>;

export const VocoderChunkReport = z.object({
  seams: z.array(ChunkSeam),
  chunks: z.array(ChunkAudio),
  /** Where the difference lies from the seams, in words (chunkWords). */
  summary: z.string(),
});
export type VocoderChunkReport = z.infer<typeof VocoderChunkReport>;

export interface ChunkAudioInput {
  a: Float32Array;
  b: Float32Array;
  sampleRate: number;
  frameRate: number;
  audioAbs: number;
  chunksA?: readonly VocoderChunk[];
  chunksB?: readonly VocoderChunk[];
}

/** The audio difference chunk by chunk; null when neither side's vocoder cut its audio (no seam inside it). */
export function chunkAudio(o: ChunkAudioInput): VocoderChunkReport | null {
  const total = Math.max(o.a.length, o.b.length);
  const cuts = new Map<number, Set<'A' | 'B'>>();
  for (const [side, chunks] of [['A', o.chunksA], ['B', o.chunksB]] as const) {
    for (const c of chunks ?? []) if (c.startSample > 0 && c.startSample < total) (cuts.get(c.startSample) ?? cuts.set(c.startSample, new Set()).get(c.startSample)!).add(side);
  }
  if (cuts.size === 0) return null;
  const frame = (sample: number): number => frameOfSample(sample, o.sampleRate, o.frameRate);
  const starts = [...cuts.keys()].sort((x, y) => x - y);
  const seams: ChunkSeam[] = starts.map((s) => ({ frame: frame(s), sample: s, timeSec: s / o.sampleRate, sides: [...cuts.get(s)!].sort() }));
  const bounds = [0, ...starts, total];
  const chunks: ChunkAudio[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [start, end] = [bounds[k], bounds[k + 1]];
    let maxAbs = 0;
    let differs = false;
    for (let i = start; i < end; i++) {
      if (i >= o.a.length || i >= o.b.length) {
        differs = true;
        continue;
      }
      const d = Math.abs(o.a[i] - o.b[i]);
      if (Number.isNaN(d)) differs ||= !(Number.isNaN(o.a[i]) && Number.isNaN(o.b[i]));
      else if (d > maxAbs) maxAbs = d;
      if (d > o.audioAbs) differs = true;
    }
    chunks.push({ chunk: k + 1, firstFrame: frame(start), lastFrame: frame(end - 1), startSample: start, endSample: end, differs, maxAbs });
  }
  return { seams, chunks, summary: chunkWords(seams, chunks) };
}

const frames = (c: ChunkAudio): string => (c.firstFrame === c.lastFrame ? `frame ${c.firstFrame}` : `frames ${c.firstFrame}-${c.lastFrame}`);
const span = (c: ChunkAudio): string => (c.firstFrame === c.lastFrame ? String(c.firstFrame) : `${c.firstFrame}-${c.lastFrame}`);
const list = (cs: readonly ChunkAudio[]): string =>
  cs.length === 1 ? `chunk ${cs[0].chunk} (${frames(cs[0])})` : `chunks ${cs.map((c) => c.chunk).join(', ')} (frames ${cs.map(span).join(', ')})`;
const ORDINALS = ['first', 'second', 'third'];
const ordinal = (n: number): string => ORDINALS[n - 1] ?? `${n}th`;
const seamWhose = (s: ChunkSeam): string => (s.sides.length === 2 ? 'A and B' : s.sides[0]);

/**
 * E.g. "audio differs only in chunk 1 of 3 (frames 1-3), up to the seam at frame 4 (B's chunks: seams at frames
 * 4, 14); equal in chunks 2, 3 (4-13, 14-20)".
 */
export function chunkWords(seams: readonly ChunkSeam[], chunks: readonly ChunkAudio[]): string {
  const differing = chunks.filter((c) => c.differs);
  const equal = chunks.filter((c) => !c.differs);
  const whose = [...new Set(seams.map(seamWhose))].join(', ');
  const cuts = `${whose}'s chunks: ${seams.length === 1 ? 'seam' : 'seams'} at ${seams.length === 1 ? 'frame' : 'frames'} ${seams.map((s) => s.frame).join(', ')}`;
  if (differing.length === 0) return `audio within tolerance in every one of the ${chunks.length} chunks (${cuts})`;
  if (differing.length === chunks.length) return `audio differs in every one of the ${chunks.length} chunks (${cuts})`;
  const only = differing.length === 1 ? differing[0] : null;
  let where = '';
  if (only) {
    const before = seams[only.chunk - 1];
    const after = seams[only.chunk - 2];
    if (after && before) where = `, between the seams at frames ${after.frame} and ${before.frame}`;
    else if (before) where = `, up to the seam at frame ${before.frame}`;
    else if (after) where = `, from the seam at frame ${after.frame} on`;
  }
  const head = only ? `audio differs only in chunk ${only.chunk} of ${chunks.length} (${frames(only)})${where}` : `audio differs in ${list(differing)} of ${chunks.length}`;
  return `${head} (${cuts}); equal in ${list(equal)}`;
}

/** The chunk holding `sample` and where its frame is from the nearest seam, e.g. "chunk 1, the last frame before the seam at frame 4"; "" outside the audio. */
export function placeOfSample(r: VocoderChunkReport, sample: number, sampleRate: number, frameRate: number): string {
  const chunk = r.chunks.find((c) => sample >= c.startSample && sample < c.endSample);
  if (!chunk) return '';
  const f = frameOfSample(sample, sampleRate, frameRate);
  let nearest = r.seams[0];
  for (const s of r.seams) if (Math.abs(s.frame - 0.5 - f) < Math.abs(nearest.frame - 0.5 - f)) nearest = s;
  const d = f - nearest.frame;
  const rel = d < 0 ? `the ${d === -1 ? 'last' : ordinal(-d)} frame before the seam at frame ${nearest.frame}` : `the ${ordinal(d + 1)} frame after the seam at frame ${nearest.frame}`;
  return `chunk ${chunk.chunk}, ${rel}`;
}

const g4 = (x: number): string => String(Number(Number(x).toPrecision(4)));

/** The chunks in lines, for the CLI summary and report.md: the summary, then each chunk and the seam after it. */
export function vocoderChunkLines(r: VocoderChunkReport): string[] {
  const lines = [`Vocoder chunks: ${r.summary}`];
  for (const c of r.chunks) {
    lines.push(`  chunk ${c.chunk}: ${frames(c)} (samples ${c.startSample}-${c.endSample - 1}), max |Δ| ${g4(Number(c.maxAbs))}${c.differs ? ', differs' : ''}`);
    const seam = r.seams[c.chunk - 1];
    if (seam) lines.push(`  seam at frame ${seam.frame} (sample ${seam.sample}, t = ${Number(seam.timeSec).toFixed(3)} s; ${seamWhose(seam)})`);
  }
  return lines;
}

import { initFft } from '../../common/analysis/fft.js';
import { maxAbs } from '../../common/analysis/levels.js';
import { FIGURE_PALETTE, type DrawBox } from '../../common/draw/draw-context.js';
import { drawSpectrogramDiffFigure } from '../../common/draw/spectrogram-diff-figure.js';
import { drawStepsFigure, stepsFigureOf } from '../../common/draw/steps-figure.js';
import { drawWaveFigure } from '../../common/draw/wave-figure.js';
import { diffGainFor, type WaveSource } from '../../common/draw/wave.js';
import type { ReportPageData } from '../../common/report/html/report-page-data.js';
import type { ReportAudio } from './page-audio.js';

/** PNG sizes (px): wide enough for a GitHub issue column at 2× zoom-out, small enough to paste. */
const OVERLAY: DrawBox = { width: 1200, height: 320 };
const STEPS: DrawBox = { width: 1200, height: 260 };
const SPECTRO: DrawBox = { width: 1200, height: 300 };

type CreateCanvas = typeof import('@napi-rs/canvas').createCanvas;

function png(createCanvas: CreateCanvas, box: DrawBox, draw: (ctx: ReturnType<ReturnType<CreateCanvas>['getContext']>) => void): Uint8Array {
  const canvas = createCanvas(box.width, box.height);
  draw(canvas.getContext('2d'));
  return new Uint8Array(canvas.toBuffer('image/png'));
}

function audioDiffers(audio: ReportAudio): boolean {
  if (audio.a.length !== audio.b.length) return true;
  for (let i = 0; i < audio.diff.length; i++) if (audio.diff[i] !== 0 || Number.isNaN(audio.diff[i])) return true;
  return false;
}

/** Which PNGs a fixture gets (report.md links exactly these): overlay.png with audio, steps.png with a step trace, spectrogram-diff.png when the audio differs. */
export function figureNames(page: Pick<ReportPageData, 'steps'>, audio: ReportAudio | undefined): string[] {
  const names: string[] = [];
  if (audio) names.push('overlay.png');
  if (page.steps.length > 0) names.push('steps.png');
  if (audio && audioDiffers(audio)) names.push('spectrogram-diff.png');
  return names;
}

/**
 * The PNGs of `figureNames`, drawn by the functions that draw report.html's figures and the studio's lanes
 * (electron/common/draw). Same inputs, same bytes.
 */
export async function reportFigures(page: Omit<ReportPageData, 'audio'>, audio: ReportAudio | undefined): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  const names = figureNames(page, audio);
  const marker = page.marker ?? undefined;
  if (names.length === 0) return out;
  // Loaded here, not at import: the native canvas costs ~70 ms, which every other CLI command would pay.
  const { createCanvas } = await import('@napi-rs/canvas');
  if (audio && names.includes('overlay.png')) {
    const gain = diffGainFor(maxAbs(audio.diff));
    const total = Math.max(audio.a.length, audio.b.length);
    // No peak pyramid: one drawing scans the samples once.
    const source = (samples: Float32Array): WaveSource => ({ samples, tiers: [], total, sampleRate: audio.sampleRate });
    const fig = { a: source(audio.a), b: source(audio.b), diff: source(audio.diff), diffDrawGain: gain, diffShownGain: gain, sampleRate: audio.sampleRate, marker, seams: page.seams };
    out['overlay.png'] = png(createCanvas, OVERLAY, (ctx) => drawWaveFigure(ctx, fig, OVERLAY, { start: 0, end: total / audio.sampleRate || 1 }, FIGURE_PALETTE));
  }
  if (names.includes('steps.png')) {
    out['steps.png'] = png(createCanvas, STEPS, (ctx) => drawStepsFigure(ctx, stepsFigureOf(page), STEPS, FIGURE_PALETTE));
  }
  if (audio && names.includes('spectrogram-diff.png')) {
    await initFft();
    out['spectrogram-diff.png'] = png(createCanvas, SPECTRO, (ctx) => drawSpectrogramDiffFigure(ctx, audio.a, audio.b, audio.sampleRate, SPECTRO, FIGURE_PALETTE, marker?.sec));
  }
  return out;
}

/** The section report.md ends with, so the PNGs show where the folder's files are dropped into an issue. */
export function figuresMarkdown(names: string[]): string {
  if (names.length === 0) return '';
  const alt: Record<string, string> = {
    'overlay.png': 'A and B overlaid, A − B below, first divergence marked',
    'steps.png': 'Per-step |Δ| of the talker logit statistics (log scale), first divergence marked',
    'spectrogram-diff.png': 'Spectrogram difference B − A (dB)',
  };
  return ['', '### Figures', '', ...names.map((n) => `![${alt[n] ?? n}](${n})`), '', 'Open report.html beside this file to listen to A, B and the difference.', ''].join('\n');
}

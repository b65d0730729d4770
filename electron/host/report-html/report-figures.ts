import { initFft } from '../../common/analysis/fft.js';
import { diffGainFor, drawOverlay } from '../../common/report/figures/draw-overlay.js';
import { drawSteps } from '../../common/report/figures/draw-steps.js';
import type { FigureBox, FigureContext } from '../../common/report/figures/figure-context.js';
import { drawSpectrogramDiff, spectrogramDiff } from '../../common/report/figures/spectrogram-diff.js';
import { maxAbs } from '../../common/analysis/levels.js';
import { samplesEnvelope } from '../../common/report/figures/track-envelope.js';
import type { ReportPageData } from '../../common/report/html/report-page-data.js';
import type { ReportAudio } from './page-audio.js';

/** PNG sizes (px): wide enough for a GitHub issue column at 2× zoom-out, small enough to paste. */
const OVERLAY: FigureBox = { width: 1200, height: 320 };
const STEPS: FigureBox = { width: 1200, height: 260 };
const SPECTRO: FigureBox = { width: 1200, height: 300 };

type CreateCanvas = typeof import('@napi-rs/canvas').createCanvas;

function png(createCanvas: CreateCanvas, box: FigureBox, draw: (ctx: FigureContext) => void): Uint8Array {
  const canvas = createCanvas(box.width, box.height);
  draw(canvas.getContext('2d') as unknown as FigureContext);
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

/** The PNGs of `figureNames`, drawn by the same functions as report.html's figures. Same inputs, same bytes. */
export async function reportFigures(page: Omit<ReportPageData, 'audio'>, audio: ReportAudio | undefined): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  const names = figureNames(page, audio);
  const marker = page.marker ?? undefined;
  if (names.length === 0) return out;
  // Loaded here, not at import: the native canvas costs ~70 ms, which every other CLI command would pay.
  const { createCanvas } = await import('@napi-rs/canvas');
  if (audio && names.includes('overlay.png')) {
    const gain = diffGainFor(maxAbs(audio.diff));
    const duration = Math.max(audio.a.length, audio.b.length) / audio.sampleRate;
    const fig = { a: samplesEnvelope(audio.a), b: samplesEnvelope(audio.b), diff: samplesEnvelope(audio.diff, gain), diffGain: gain, sampleRate: audio.sampleRate, marker };
    out['overlay.png'] = png(createCanvas, OVERLAY, (ctx) => drawOverlay(ctx, fig, OVERLAY, { fromSec: 0, toSec: duration || 1 }));
  }
  if (names.includes('steps.png')) {
    out['steps.png'] = png(createCanvas, STEPS, (ctx) => drawSteps(ctx, { steps: page.steps, firstStep: page.firstStep, tolerance: page.logitTolerance }, STEPS));
  }
  if (audio && names.includes('spectrogram-diff.png')) {
    await initFft();
    const s = spectrogramDiff(audio.a, audio.b, audio.sampleRate, 300, 96);
    out['spectrogram-diff.png'] = png(createCanvas, SPECTRO, (ctx) => drawSpectrogramDiff(ctx, s, SPECTRO, marker));
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

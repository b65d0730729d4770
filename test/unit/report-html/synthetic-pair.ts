import type { ReportPageData } from '../../../electron/common/report/html/report-page-data.js';
import type { ReportAudio } from '../../../electron/host/report-html/page-audio.js';

export const RATE = 24000;
export const FRAME_RATE = 25;
/** Step 13 yields frame 13, which starts at (13 − 1) / 25 = 0.48 s (DESIGN.md: step N yields frame N). */
export const FIRST_STEP = 13;
export const DIVERGENCE_SEC = (FIRST_STEP - 1) / FRAME_RATE;

/** One second of a 220 Hz tone at half scale; B switches to 330 Hz from the divergence on. */
export function syntheticAudio(identical = false): ReportAudio {
  const n = RATE;
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    a[i] = 0.5 * Math.sin(2 * Math.PI * 220 * t);
    b[i] = identical || t < DIVERGENCE_SEC ? a[i] : 0.5 * Math.sin(2 * Math.PI * 330 * t);
  }
  const diff = a.map((v, i) => v - b[i]);
  return { a, b, diff, sampleRate: RATE };
}

/** Page data as reportPageData makes it for 25 steps diverging at FIRST_STEP (only the fields figures read matter here). */
export function syntheticPage(markdown = '## Parity report: eager vs graph\n'): Omit<ReportPageData, 'audio'> {
  const steps = Array.from({ length: 25 }, (_, i) => ({ step: i + 1, delta: i + 1 < FIRST_STEP ? 0 : 0.5 }));
  return {
    title: 'Parity report: eager vs graph',
    verdict: 'diverged',
    words: ['Verdict: diverged', `First divergence: step ${FIRST_STEP}`],
    warnings: [],
    metrics: [['Max |A−B|', '0.99']],
    tolerances: [['Audio samples', '|A−B| ≤ 0.0001']],
    drill: [],
    drillReport: null,
    markdown,
    steps,
    logits: steps.map((s) => ({ step: s.step, meanA: 0.1, maxA: 9, meanB: s.delta ? 0.6 : 0.1, maxB: 9 })),
    codes: { a: steps.map(() => [1, 2]), b: steps.map((s) => (s.step < FIRST_STEP ? [1, 2] : [3, 2])) },
    firstStep: FIRST_STEP,
    stage: 'talker-logits',
    logitTolerance: 1e-3,
    audioTolerance: 1e-4,
    frameRate: FRAME_RATE,
    marker: { sec: DIVERGENCE_SEC, label: `first divergence: step ${FIRST_STEP}` },
    seams: [],
    endpoints: null,
  };
}

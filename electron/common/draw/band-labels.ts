/** A label to draw over a run of consecutive steps that share it (e.g. "B NaN" on steps 4–25). */
export interface BandLabel {
  text: string;
  /** Centre x and the box it occupies (px), as drawn. */
  x: number;
  left: number;
  right: number;
  from: number;
  to: number;
}

/**
 * Labels for per-step bands that never overlap: consecutive steps with the same text become one run,
 * labelled once at its centre ("B NaN, steps 4–25"); a label that would touch the previous one drawn
 * (closer than `gap` px) is left out, since its band still shows. `xOf` maps a step to its centre,
 * `width` measures a text as drawn.
 */
export function bandLabels(steps: { step: number; text: string }[], xOf: (step: number) => number, width: (text: string) => number, gap = 6): BandLabel[] {
  const runs: { text: string; from: number; to: number }[] = [];
  for (const s of [...steps].sort((a, b) => a.step - b.step)) {
    const last = runs[runs.length - 1];
    if (last && last.text === s.text && s.step === last.to + 1) last.to = s.step;
    else runs.push({ text: s.text, from: s.step, to: s.step });
  }
  const out: BandLabel[] = [];
  for (const r of runs) {
    const text = r.from === r.to ? r.text : `${r.text}, steps ${r.from}–${r.to}`;
    const x = (xOf(r.from) + xOf(r.to)) / 2;
    const w = width(text);
    const box = { text, x, left: x - w / 2, right: x + w / 2, from: r.from, to: r.to };
    const prev = out[out.length - 1];
    if (!prev || box.left >= prev.right + gap) out.push(box);
  }
  return out;
}

/** One frequency tick on a spectrogram: `fromTop` is 0 at the top edge (Nyquist) and 1 at the bottom (0 Hz). */
export interface FrequencyTick {
  hz: number;
  fromTop: number;
  label: string;
}

// Steps in kHz; the smallest that leaves at most `maxTicks` ticks strictly between 0 and Nyquist.
const STEPS_KHZ = [0.5, 1, 2, 3, 4, 5, 10, 20, 50];

/** kHz tick labels for a linear spectrogram whose rows span 0 Hz .. sampleRate / 2. */
export function frequencyTicks(sampleRate: number, maxTicks = 4): FrequencyTick[] {
  const nyquist = sampleRate / 2;
  if (!(nyquist > 0)) return [];
  const step = 1000 * (STEPS_KHZ.find((k) => Math.ceil((nyquist - 1e-9) / (k * 1000)) - 1 <= maxTicks) ?? STEPS_KHZ[STEPS_KHZ.length - 1]);
  const ticks: FrequencyTick[] = [];
  for (let hz = step; hz < nyquist - 1e-9; hz += step) ticks.push({ hz, fromTop: 1 - hz / nyquist, label: `${+(hz / 1000).toFixed(1)} kHz` });
  return ticks;
}

/**
 * Tick spacings for an axis of whole numbers (decode steps): 1, 2, 5, 10, 20, 50, … up to `max`.
 * uPlot picks the smallest that fits its label spacing; without these it also offers 0.5, 2.5, …,
 * which on a narrow chart labels "step 2.5", a step that does not exist.
 */
export function integerIncrs(max = 1e6): number[] {
  const out: number[] = [];
  for (let decade = 1; decade <= max; decade *= 10) for (const m of [1, 2, 5]) if (m * decade <= max) out.push(m * decade);
  return out;
}

/** A label beside a lane: `fromTop` is 0 at the lane's top edge and 1 at its bottom. */
export interface LaneTick {
  fromTop: number;
  label: string;
  /** Drawn in a colour: the marker's (the step lane's row of the first divergence), or a take's (stacked A and B). */
  tone?: 'marked' | 'a' | 'b';
}

/**
 * Codebook numbers beside a codes lane of `q` rows, `rowPx` high each (codebook 0 on top): every row
 * when rows are at least `minGapPx` apart, else every 2nd, 4th, … (labels of 0.65 rem need about 11 px).
 */
export function codebookTicks(q: number, rowPx: number, minGapPx = 11): LaneTick[] {
  const every = integerIncrs(Math.max(1, q)).find((n) => n * rowPx >= minGapPx) ?? q;
  const ticks: LaneTick[] = [];
  for (let k = 0; k < q; k += every) ticks.push({ fromTop: (k + 0.5) / q, label: String(k) });
  return ticks;
}

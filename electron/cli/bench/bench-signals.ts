/**
 * Deterministic speech-like bench signals, cheap to make at 10 minutes: a wavetable of 12 harmonics
 * (1/k amplitudes) read at a gliding 120–220 Hz pitch, under a 4 Hz syllable envelope, plus noise
 * from a seeded xorshift generator.
 */
const TABLE_SIZE = 4096;

export function speechLikeSignal(seconds: number, sampleRate: number, seed: number): Float32Array {
  const table = new Float64Array(TABLE_SIZE + 1);
  for (let i = 0; i <= TABLE_SIZE; i++) {
    let v = 0;
    for (let k = 1; k <= 12; k++) v += Math.sin((2 * Math.PI * k * i) / TABLE_SIZE) / k;
    table[i] = v;
  }
  const out = new Float32Array(Math.round(seconds * sampleRate));
  let state = seed >>> 0 || 1;
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    phase += ((170 + 50 * Math.sin(2 * Math.PI * 0.3 * t)) * TABLE_SIZE) / sampleRate;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
    const j = phase | 0;
    const tone = table[j] + (phase - j) * (table[j + 1] - table[j]);
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const noise = (state >>> 0) / 4294967296 - 0.5;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    out[i] = 0.2 * envelope * tone + 0.02 * noise;
  }
  return out;
}

/** B[n] = gain·A[n − delay] + noise: the "delayed, scaled, noisy copy". */
export function degradedCopy(
  a: Float32Array,
  delay: number,
  gain: number,
  noiseAmplitude: number,
): Float32Array {
  const out = new Float32Array(a.length);
  let state = 0x9e3779b9;
  for (let i = 0; i < a.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = (i >= delay ? gain * a[i - delay] : 0) + noiseAmplitude * ((state >>> 0) / 4294967296 - 0.5);
  }
  return out;
}

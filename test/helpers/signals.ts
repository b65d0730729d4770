/** Deterministic test signals whose levels are known by formula. */

/** A sine of the given peak level: amplitude 10^(peakDbfs/20); its RMS is peakDbfs − 3.0103 dB. */
export function sine(frequency: number, peakDbfs: number, seconds: number, sampleRate: number): Float32Array {
  const amplitude = Math.pow(10, peakDbfs / 20);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

/** Seeded uniform generator (mulberry32): the same seed gives the same numbers on every machine. */
export function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Gaussian white noise with the given RMS (Box–Muller over `uniform`). */
export function whiteNoise(length: number, rms: number, seed: number): Float32Array {
  const next = uniform(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - next()));
    const t = 2 * Math.PI * next();
    out[i] = rms * r * Math.cos(t);
    if (i + 1 < length) out[i + 1] = rms * r * Math.sin(t);
  }
  return out;
}

/**
 * A speech-like test signal: a 120–220 Hz gliding harmonic tone (12 harmonics, 1/k amplitudes)
 * under a 4 Hz syllable envelope, plus a little noise. Broadband, so cross-correlation has one peak.
 */
export function speechLike(seconds: number, sampleRate: number, seed: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const noise = whiteNoise(out.length, 0.01, seed);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    phase += (2 * Math.PI * (170 + 50 * Math.sin(2 * Math.PI * 0.3 * t))) / sampleRate;
    let v = 0;
    for (let k = 1; k <= 12; k++) v += Math.sin(k * phase) / k;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    out[i] = 0.2 * envelope * v + noise[i];
  }
  return out;
}

/** B[n] = gain·A[n − delay] + noise (B is late by `delay` samples), same length as A. */
export function delayedCopy(
  a: Float32Array,
  delay: number,
  gain: number,
  noise?: Float32Array,
): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    out[i] = (i >= delay ? gain * a[i - delay] : 0) + (noise ? noise[i] : 0);
  }
  return out;
}

/** RMS in dB of a signal, computed here independently of the code under test. */
export function rmsDb(x: Float32Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return 10 * Math.log10(s / x.length);
}

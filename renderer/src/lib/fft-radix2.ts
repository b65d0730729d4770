/**
 * In-place iterative radix-2 FFT (n a power of two) over separate real and imaginary arrays, for the
 * renderer's spectrogram. Not the project's PFFFT wrapper (electron/common/analysis/fft.ts) on purpose:
 * compiling WASM in the page needs 'wasm-unsafe-eval' in script-src, and both the page's CSP meta
 * (renderer/index.html) and browser mode's header (electron/server/studio-server.ts) allow only 'self';
 * Chromium refuses WebAssembly.compile there. Cost here: ~0.1 s for a 10-minute 24 kHz take (2000 columns
 * of 512 points, computed once per comparison).
 */
export function fftInPlace(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if ((n & (n - 1)) !== 0) throw new Error(`FFT size ${n} is not a power of two`);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

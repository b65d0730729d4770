// Spectrogram time of a 10-minute 24 kHz track as a studio lane computes it for the whole take (512-point
// FFT, one column per pixel of a 1280 px lane), 7 runs after loading PFFFT once: `npm run bench:spectrogram`.
import { initFft } from '../../electron/common/analysis/fft.js';
import { spectrogramOfRange } from '../../electron/common/draw/spectrogram.js';

await initFft();
const rate = 24000;
const n = rate * 600;
const x = new Float32Array(n);
let s = 1;
for (let i = 0; i < n; i++) {
  s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
  x[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate) + 0.01 * (s / 2 ** 32 - 0.5);
}
const times: number[] = [];
for (let r = 0; r < 7; r++) {
  const t = performance.now();
  spectrogramOfRange(x, rate, 0, n, 1280);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`spectrogram of 10 min at 24 kHz, 7 runs (ms): ${times.map((t) => t.toFixed(1)).join(' ')}; median ${times[3].toFixed(1)} ms`);

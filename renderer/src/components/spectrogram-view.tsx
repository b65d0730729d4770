import { useEffect, useRef, useState } from 'react';
import { frequencyTicks, type FrequencyTick } from '../lib/axis-ticks.js';
import { loadFft } from '../lib/fft-loader.js';
import { PFFFT_WASM_URL } from '../lib/pffft-wasm-url.js';
import type { Spectrogram } from '../lib/spectrogram.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Spectrograms of A and B for the visible window of the shared timeline (redrawn on zoom/scroll). */
export function SpectrogramView() {
  const store = useStoreApi();
  // The FFT (PFFFT, WASM) loads on first use; until then the canvases stay empty.
  const [fft, setFft] = useState<{ ready: boolean; error?: string }>({ ready: false });
  useEffect(() => {
    let live = true;
    loadFft(PFFFT_WASM_URL).then(
      () => live && setFft({ ready: true }),
      (error: unknown) => live && setFft({ ready: false, error: (error as Error).message }),
    );
    return () => {
      live = false;
    };
  }, []);
  const specA = useStudio((s) => (fft.ready ? audioSelectors.spectrogramA(s) : undefined));
  const specB = useStudio((s) => (fft.ready ? audioSelectors.spectrogramB(s) : undefined));
  const refA = useRef<HTMLCanvasElement>(null);
  const refB = useRef<HTMLCanvasElement>(null);
  const sampleRate = useStudio((s) => s.comparison?.a?.sampleRate ?? s.comparison?.b?.sampleRate ?? 0);
  const ticks = frequencyTicks(sampleRate);
  useEffect(() => {
    const draw = () => {
      const s = store.getState();
      const duration = audioSelectors.duration(s);
      const end = s.visible.end > s.visible.start ? s.visible.end : duration;
      if (specA && refA.current) paint(refA.current, specA, s.visible.start, end);
      if (specB && refB.current) paint(refB.current, specB, s.visible.start, end);
    };
    draw();
    return store.subscribe((now, before) => {
      if (now.visible !== before.visible) draw();
    });
  }, [specA, specB, store]);
  return (
    <div className="spectrograms" data-testid="spectrograms" data-ready={specA !== undefined || specB !== undefined}>
      {fft.error && (
        <p className="error small-text" role="alert">
          No spectrogram: {fft.error}
        </p>
      )}
      <div className="track-label">Spectrogram A</div>
      <div className="spectrogram-row">
        <FrequencyAxis ticks={ticks} />
        <canvas ref={refA} className="spectrogram" aria-label="Spectrogram of A" />
      </div>
      <div className="track-label">Spectrogram B</div>
      <div className="spectrogram-row">
        <FrequencyAxis ticks={ticks} />
        <canvas ref={refB} className="spectrogram" aria-label="Spectrogram of B" />
      </div>
    </div>
  );
}

/** kHz labels beside a spectrogram (0 Hz at the bottom, Nyquist at the top). */
function FrequencyAxis({ ticks }: { ticks: FrequencyTick[] }) {
  return (
    <div className="freq-axis" data-testid="freq-axis">
      {ticks.map((t) => (
        // React sets `style` through the CSSOM (element.style), which style-src 'self' allows.
        <span key={t.hz} style={{ top: `${(t.fromTop * 100).toFixed(2)}%` }}>
          {t.label}
        </span>
      ))}
    </div>
  );
}

function paint(canvas: HTMLCanvasElement, spec: Spectrogram, start: number, end: number): void {
  const width = canvas.clientWidth || 800;
  const height = canvas.clientHeight || 90;
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(width, height);
  const c0 = start / spec.hopSec;
  const perPx = (end - start) / spec.hopSec / width;
  for (let x = 0; x < width; x++) {
    const col = Math.min(spec.columns - 1, Math.max(0, Math.floor(c0 + x * perPx)));
    for (let y = 0; y < height; y++) {
      const bin = Math.floor(((height - 1 - y) / height) * spec.bins);
      const v = spec.data[col * spec.bins + bin];
      const i = 4 * (y * width + x);
      // A dark-blue → yellow ramp, readable in both themes.
      img.data[i] = Math.min(255, v * 1.2);
      img.data[i + 1] = Math.max(0, v * 1.1 - 40);
      img.data[i + 2] = Math.max(0, 120 - v * 0.4);
      img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}

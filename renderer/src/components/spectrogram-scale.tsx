import { useEffect, useRef } from 'react';
import { codeToDb, rampRgb } from '../../../electron/common/draw/spectrogram.js';

/** The spectrogram's dB ticks: every 20 dB from the floor (code 0) to full scale (code 255). */
const TICKS_DB = [-100, -80, -60, -40, -20, 0];
const FLOOR_DB = codeToDb(0);

/**
 * The colour bar of the spectrogram lanes: the ramp they are painted with (rampRgb over codes 0..255)
 * from the floor to 0 dB re full scale, with its dB ticks.
 */
export function SpectrogramScale() {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    for (let code = 0; code < 256; code++) {
      const [r, g, b] = rampRgb(code);
      ctx.fillStyle = `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
      ctx.fillRect(code, 0, 1, 10);
    }
  }, []);
  return (
    <figure className="spectro-scale" data-testid="spectro-scale" aria-label={`Spectrogram colour scale, ${FLOOR_DB} to 0 dB re full scale`}>
      <figcaption className="muted">Spectrogram level</figcaption>
      <div className="spectro-scale-bar">
        <canvas ref={canvas} width={256} height={10} />
        <div className="spectro-scale-ticks">
          {TICKS_DB.map((db) => (
            <span key={db} style={{ left: `${((db - FLOOR_DB) / -FLOOR_DB) * 100}%` }}>
              {db === 0 ? '0 dBFS' : `${db}`.replace('-', '−')}
            </span>
          ))}
        </div>
      </div>
    </figure>
  );
}

import { useCallback, useMemo, useRef, useState, type WheelEvent } from 'react';
import { drawOverlay, overlaySec, overlayX, type TimeView } from '../../electron/common/report/figures/draw-overlay.js';
import type { FigureBox, FigureContext } from '../../electron/common/report/figures/figure-context.js';
import { CanvasFigure } from './canvas-figure.js';
import type { PageTracks } from './page-tracks.js';
import { useWidth } from './use-width.js';
import { panView, zoomView } from './zoom-view.js';

const HEIGHT = 300;

/**
 * A and B overlaid and A − B below, the first divergence marked; zoom with the buttons or the wheel
 * (around the pointer), scroll with Shift+wheel; a click moves the players there.
 */
export function OverlayView({ tracks, sampleRate, marker, position, onSeek }: {
  tracks: PageTracks;
  sampleRate: number;
  marker: { sec: number; label: string } | null;
  position: number;
  onSeek: (sec: number) => void;
}) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap);
  const duration = tracks.durationSec || 1;
  const [view, setView] = useState<TimeView>({ fromSec: 0, toSec: duration });
  const box = useMemo<FigureBox>(() => ({ width, height: HEIGHT }), [width]);
  const draw = useCallback(
    (ctx: FigureContext, b: FigureBox) => drawOverlay(ctx, { ...tracks.envelopes, diffGain: tracks.diffGain, sampleRate, marker: marker ?? undefined }, b, view),
    [tracks, sampleRate, marker, view],
  );
  const centre = (view.fromSec + view.toSec) / 2;
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (e.shiftKey) setView(panView(view, (e.deltaY / 500) * (view.toSec - view.fromSec), duration));
    else setView(zoomView(view, e.deltaY < 0 ? 0.8 : 1.25, overlaySec(e.clientX - rect.left, view, width), duration));
  };
  const playheadX = overlayX(position, view, width);
  return (
    <section aria-label="Waveforms">
      <h2>Waveforms</h2>
      <div className="zoom-tools">
        <button type="button" data-testid="zoom-in" onClick={() => setView(zoomView(view, 0.5, centre, duration))}>Zoom in</button>
        <button type="button" data-testid="zoom-out" onClick={() => setView(zoomView(view, 2, centre, duration))}>Zoom out</button>
        <button type="button" onClick={() => setView(panView(view, -(view.toSec - view.fromSec) / 2, duration))}>◀ Earlier</button>
        <button type="button" onClick={() => setView(panView(view, (view.toSec - view.fromSec) / 2, duration))}>Later ▶</button>
        {marker && (
          <button type="button" data-testid="zoom-divergence" onClick={() => setView(zoomView({ fromSec: marker.sec - 0.25, toSec: marker.sec + 0.25 }, 1, marker.sec, duration))}>
            Zoom to the first divergence
          </button>
        )}
        <button type="button" onClick={() => setView({ fromSec: 0, toSec: duration })}>Whole take</button>
        <span className="muted" data-testid="view-range">
          {view.fromSec.toFixed(3)}–{view.toSec.toFixed(3)} s
        </span>
      </div>
      <div
        ref={wrap}
        className="figure-wrap"
        onWheel={onWheel}
        onClick={(e) => onSeek(Math.max(0, Math.min(duration, overlaySec(e.clientX - e.currentTarget.getBoundingClientRect().left, view, width))))}
      >
        <CanvasFigure
          box={box}
          draw={draw}
          label={`Waveforms of A and B overlaid and their difference${marker ? `, ${marker.label} at ${marker.sec.toFixed(3)} s` : ''}`}
          data-testid="overlay"
          data-from-sec={view.fromSec}
          data-to-sec={view.toSec}
        />
        {playheadX >= 0 && playheadX <= width && <div className="playhead" style={{ left: playheadX }} data-testid="playhead" />}
      </div>
    </section>
  );
}

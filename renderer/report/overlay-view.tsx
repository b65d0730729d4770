import { useCallback, useMemo, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { FIGURE_PALETTE, type DrawBox, type DrawContext } from '../../electron/common/draw/draw-context.js';
import { seamNear, seamText, type SeamMark } from '../../electron/common/draw/seam-marks.js';
import type { Viewport } from '../../electron/common/draw/viewport.js';
import { drawWaveFigure, WAVE_MARGIN, waveFigureLanes, waveFigureSec, waveFigureX } from '../../electron/common/draw/wave-figure.js';
import { centredOn, fitViewport, minSpan, panBy, zoomAt } from '../src/lib/viewport.js';
import { CanvasFigure } from './canvas-figure.js';
import type { PageTracks } from './page-tracks.js';
import { useWidth } from './use-width.js';

const HEIGHT = 300;

/**
 * The studio's ruler, A + B and difference lanes, the first divergence and any seams marked; zoom with
 * the buttons or the wheel (around the pointer, as the studio's lanes zoom), scroll with Shift+wheel;
 * hovering a seam names it; a click moves the players there.
 */
export function OverlayView({ tracks, sampleRate, marker, seams, position, onSeek }: {
  tracks: PageTracks;
  sampleRate: number;
  marker: { sec: number; label: string } | null;
  seams: SeamMark[];
  position: number;
  onSeek: (sec: number) => void;
}) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap);
  const duration = tracks.durationSec || 1;
  const plotWidth = width - WAVE_MARGIN.left - WAVE_MARGIN.right;
  const least = minSpan(plotWidth, sampleRate, duration);
  const [view, setView] = useState<Viewport>(fitViewport(duration));
  const [readout, setReadout] = useState('');
  const box = useMemo<DrawBox>(() => ({ width, height: HEIGHT }), [width]);
  const draw = useCallback(
    (ctx: DrawContext, b: DrawBox) =>
      drawWaveFigure(ctx, { ...tracks.sources, diffDrawGain: 1, diffShownGain: tracks.diffGain, sampleRate, marker: marker ?? undefined, seams }, b, view, FIGURE_PALETTE),
    [tracks, sampleRate, marker, seams, view],
  );
  const span = view.end - view.start;
  const centre = (view.start + view.end) / 2;
  const zoom = (factor: number, anchor = centre) => setView(zoomAt(view, factor, anchor, duration, least));
  const pan = (seconds: number) => setView(panBy(view, seconds, duration, least));
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (e.shiftKey) pan((e.deltaY / 500) * span);
    else zoom(e.deltaY < 0 ? 1.25 : 0.8, waveFigureSec(e.clientX - rect.left, view, width));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
    const y = e.clientY - e.currentTarget.getBoundingClientRect().top;
    const lanes = waveFigureLanes(HEIGHT);
    const sec = waveFigureSec(x, view, width);
    const seam = y >= lanes.ab[0] && y <= lanes.diff[1] ? seamNear(seams, view, plotWidth, x - WAVE_MARGIN.left) : undefined;
    setReadout(sec >= view.start && sec <= view.end ? `${sec.toFixed(4)} s${seam ? ` · ${seamText(seam)}` : ''}` : '');
  };
  const playheadX = waveFigureX(position, view, width);
  return (
    <section aria-label="Waveforms">
      <h2>Waveforms</h2>
      <div className="zoom-tools">
        <button type="button" data-testid="zoom-in" onClick={() => zoom(2)}>Zoom in</button>
        <button type="button" data-testid="zoom-out" onClick={() => zoom(0.5)}>Zoom out</button>
        <button type="button" onClick={() => pan(-span / 2)}>◀ Earlier</button>
        <button type="button" onClick={() => pan(span / 2)}>Later ▶</button>
        {marker && (
          <button type="button" data-testid="zoom-divergence" onClick={() => setView(centredOn(marker.sec, 0.5, duration, least))}>
            Zoom to the first divergence
          </button>
        )}
        <button type="button" onClick={() => setView(fitViewport(duration))}>Whole take</button>
        <span className="muted" data-testid="view-range">
          {view.start.toFixed(3)}–{view.end.toFixed(3)} s
        </span>
      </div>
      <div
        ref={wrap}
        className="figure-wrap"
        onWheel={onWheel}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setReadout('')}
        onClick={(e) => onSeek(Math.max(0, Math.min(duration, waveFigureSec(e.clientX - e.currentTarget.getBoundingClientRect().left, view, width))))}
      >
        <CanvasFigure
          box={box}
          draw={draw}
          label={`Waveforms of A and B overlaid and their difference${marker ? `, ${marker.label} at ${marker.sec.toFixed(3)} s` : ''}${seams.length > 0 ? `, ${seams.length} seam${seams.length === 1 ? '' : 's'} at chunk boundaries marked` : ''}`}
          data-testid="overlay"
          data-from-sec={view.start}
          data-to-sec={view.end}
        />
        {playheadX >= WAVE_MARGIN.left && playheadX <= width - WAVE_MARGIN.right && <div className="playhead" style={{ left: playheadX }} data-testid="playhead" />}
      </div>
      <p className="muted readout" data-testid="overlay-readout" aria-live="off">
        {readout || (seams.length > 0 ? `Seams (${seams.length}) are marked by triangles above the waveforms; hover one to name it.` : ' ')}
      </p>
      {seams.length > 0 && (
        <ul className="seams" data-testid="seams" aria-label="Seams at chunk boundaries">
          {seams.map((s) => (
            <li key={s.boundary}>{seamText(s)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

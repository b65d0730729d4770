import type { KeyboardEvent } from 'react';
import { memo, useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { xToTime } from '../../../../electron/common/draw/viewport.js';
import { timelineKeyAction } from '../../lib/timeline-keys.js';
import { laneSelectors } from '../../store/view/lane-selectors.js';
import { timelineSelectors } from '../../store/view/timeline-selectors.js';
import { useStoreApi, useStudio } from '../store-context.js';
import { colors, useColorScheme, useShortWindow } from '../theme.js';
import { laneTops, paintLane, paintOverlay } from './lane-painting.js';
import { readoutText } from './lane-readout.js';
import { laneSpecs } from './lane-specs.js';
import { useFft } from './use-fft.js';

/** A drag shorter than this (px) is a click: it seeks instead of selecting a region. */
const CLICK_PX = 4;
const READOUT_HINT = 'Hover a lane for time, sample and values; drag to select a loop region; click to seek.';

/**
 * Every lane of the comparison on one time axis: ruler, A/B, difference, spectrograms, loudness, per-step
 * |Δ| and codes, all drawn for the view slice's one viewport, with one overlay (playhead, hover cursor,
 * loop region, first divergence) across all of them. Ctrl+wheel zooms about the pointer (a non-passive
 * listener, so the page itself never zooms), wheel sideways or Shift+wheel scrolls, a drag selects a
 * loop region, a click seeks.
 * It renders only when what the lanes are built from changes (laneSelectors.inputs, the colour scheme, the
 * window's height class, the FFT's loading): the playhead, hover and loop are drawn into the overlay by a
 * store subscription, the hover readout is written into its line, and a parent's render stops at `memo`.
 */
export const Lanes = memo(function Lanes() {
  const store = useStoreApi();
  const inputs = useStudio(useShallow(laneSelectors.inputs));
  const scheme = useColorScheme();
  const short = useShortWindow();
  const fft = useFft(inputs.spectrogram);
  // colors() reads the theme's CSS colours, which follow the scheme.
  const lanes = useMemo(() => laneSpecs(inputs, colors(), fft.ready, short), [inputs, scheme, short, fft.ready]);
  const columnRef = useRef<HTMLDivElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const readoutRef = useRef<HTMLParagraphElement>(null);
  const canvases = useRef(new Map<string, HTMLCanvasElement>());
  const showReadout = (text: string) => {
    if (readoutRef.current) readoutRef.current.textContent = text || READOUT_HINT;
  };
  const dragState = useRef<{ from: number | undefined; x: number }>({ from: undefined, x: 0 });

  // Lane width → store; content redraws on viewport, width or lanes; the overlay on marks.
  useEffect(() => {
    const column = columnRef.current;
    if (!column) return;
    let frame = 0;
    let overlayFrame = 0;
    const drawLanes = () => {
      frame = 0;
      const s = store.getState();
      for (const lane of lanes) {
        const canvas = canvases.current.get(lane.id);
        if (canvas) paintLane(canvas, lane, s);
      }
    };
    const drawMarks = () => {
      overlayFrame = 0;
      const canvas = overlayRef.current;
      if (canvas) paintOverlay(canvas, store.getState(), lanes);
    };
    const schedule = () => (frame ||= requestAnimationFrame(drawLanes));
    const scheduleMarks = () => (overlayFrame ||= requestAnimationFrame(drawMarks));
    const observer = new ResizeObserver(() => {
      store.getState().setLaneWidth(Math.floor(column.clientWidth));
      schedule();
      scheduleMarks();
    });
    observer.observe(column);
    store.getState().setLaneWidth(Math.floor(column.clientWidth));
    drawLanes();
    drawMarks();
    const unsubscribe = store.subscribe((now, before) => {
      if (now.viewport !== before.viewport || now.laneWidth !== before.laneWidth) {
        schedule();
        scheduleMarks();
      } else if (now.position !== before.position || now.hover !== before.hover || now.loop !== before.loop || now.loopOn !== before.loopOn) scheduleMarks();
      // Keep the playhead in view while playing.
      if (now.playing && now.position !== before.position && (now.position > now.viewport.end || now.position < now.viewport.start)) {
        const span = now.viewport.end - now.viewport.start;
        now.setViewport({ start: now.position, end: now.position + span });
      }
    });
    return () => {
      observer.disconnect();
      unsubscribe();
      cancelAnimationFrame(frame);
      cancelAnimationFrame(overlayFrame);
    };
  }, [lanes, store]);

  // Wheel: a native listener, not React's (passive), so Ctrl+wheel can stop the page zoom.
  useEffect(() => {
    const column = columnRef.current;
    if (!column) return;
    const onWheel = (e: WheelEvent) => {
      const s = store.getState();
      const x = e.clientX - column.getBoundingClientRect().left;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        s.zoomBy(Math.exp(-e.deltaY * 0.002), xToTime(s.viewport, s.laneWidth, x));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        s.scrollBy((e.shiftKey ? e.deltaY : e.deltaX) / s.laneWidth);
      }
    };
    column.addEventListener('wheel', onWheel, { passive: false });
    return () => column.removeEventListener('wheel', onWheel);
  }, [store, lanes]);

  if (lanes.length === 0) return null;
  const tops = laneTops(lanes);
  const totalHeight = tops[tops.length - 1];
  const laneAt = (y: number) => {
    const i = Math.max(0, tops.findIndex((t, k) => k < lanes.length && y >= t && y < tops[k + 1]));
    return { lane: lanes[i], y: (y - tops[i]) / lanes[i].height };
  };
  const pointerTime = (e: React.PointerEvent) => {
    const s = store.getState();
    return xToTime(s.viewport, s.laneWidth, e.nativeEvent.offsetX);
  };
  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    dragState.current = { from: pointerTime(e), x: e.nativeEvent.offsetX };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const s = store.getState();
    const t = pointerTime(e);
    const { lane, y } = laneAt(e.nativeEvent.offsetY);
    s.setHover({ time: t, lane: lane.id, y });
    showReadout(readoutText(s, lane, t, y, e.nativeEvent.offsetX));
    const d = dragState.current;
    if (d.from !== undefined && Math.abs(e.nativeEvent.offsetX - d.x) >= CLICK_PX) s.setLoopRegion({ start: Math.min(d.from, t), end: Math.max(d.from, t) });
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const d = dragState.current;
    if (d.from !== undefined && Math.abs(e.nativeEvent.offsetX - d.x) < CLICK_PX) store.getState().seek(pointerTime(e));
    dragState.current = { from: undefined, x: 0 };
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const s = store.getState();
    const action = timelineKeyAction(e.key, e.ctrlKey || e.metaKey);
    if (!action) return;
    e.preventDefault();
    if (action.zoom) s.zoomBy(action.zoom, s.position >= s.viewport.start && s.position <= s.viewport.end ? s.position : undefined);
    if (action.scroll) s.scrollBy(action.scroll);
    const span = s.viewport.end - s.viewport.start;
    if (action.to === 'start') s.setViewport({ start: 0, end: span });
    if (action.to === 'end') s.setViewport({ start: timelineSelectors.duration(s) - span, end: timelineSelectors.duration(s) });
    if (action.fit) s.fit();
  };
  return (
    <div
      className="lanes"
      role="group"
      tabIndex={0}
      aria-label="Timeline lanes"
      aria-describedby="lanes-keys"
      data-testid="lanes"
      onKeyDown={onKeyDown}
    >
      <span id="lanes-keys" className="visually-hidden">
        + and − zoom in and out, ← and → scroll, Home and End go to the ends, 0 shows the whole take.
      </span>
      <div className="lane-labels" aria-hidden="true">
        {lanes.map((lane) => (
          <div key={lane.id} className={`lane-label lane-label-${lane.id}${lane.axis ? ' has-axis' : ''}`} style={{ height: lane.height }}>
            {lane.label}
            {lane.axis && (
              <span className="lane-axis" data-testid={lane.axis.testId}>
                {lane.axis.ticks.map((t) => (
                  <span key={t.label} className={t.tone} style={{ top: `${(t.fromTop * 100).toFixed(2)}%` }}>
                    {t.label}
                  </span>
                ))}
              </span>
            )}
          </div>
        ))}
      </div>
      <div className="lane-column" ref={columnRef} style={{ height: totalHeight }}>
        {lanes.map((lane) => (
          <canvas
            key={lane.id}
            ref={(el) => {
              if (el) canvases.current.set(lane.id, el);
              else canvases.current.delete(lane.id);
            }}
            className={`lane lane-${lane.id}`}
            style={{ height: lane.height }}
            data-testid={lane.testId}
            role="img"
            aria-label={lane.aria}
          />
        ))}
        <canvas
          ref={overlayRef}
          className="lane-overlay"
          data-testid="lane-overlay"
          aria-hidden="true"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => {
            store.getState().setHover(undefined);
            showReadout('');
          }}
        />
      </div>
      {fft.error && (
        <p className="error small-text" role="alert">
          No spectrogram: {fft.error}
        </p>
      )}
      <p ref={readoutRef} className="hover-readout lanes-readout" data-testid="hover-readout" aria-live="off">
        {READOUT_HINT}
      </p>
    </div>
  );
});

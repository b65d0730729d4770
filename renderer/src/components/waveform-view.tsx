import { useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import { fmtTime } from '../lib/format.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { viewSelectors } from '../store/view/view-slice.js';
import { SpectrogramView } from './spectrogram-view.js';
import { useStoreApi, useStudio } from './store-context.js';
import { colors } from './theme.js';
import { addMarker, adoptWavesurferStyles } from './wavesurfer-csp.js';
import { ZoomBar } from './zoom-bar.js';

/**
 * A and B on one timeline (overlaid in two colours, or stacked), the difference track under it, and
 * the spectrograms when asked; all follow one zoom and one scroll position from the view slice. Drawn
 * from precomputed peaks (audio-selectors), never from the raw samples.
 */
export function WaveformView() {
  const store = useStoreApi();
  const comparison = useStudio(comparisonSelectors.comparison);
  const layout = useStudio(viewSelectors.layout);
  const duration = useStudio(audioSelectors.duration);
  const divergenceTime = useStudio(comparisonSelectors.divergenceTime);
  const diffScale = useStudio((s) => audioSelectors.peaksD(s).scale);
  const spectrogram = useStudio(viewSelectors.spectrogram);
  const mainRef = useRef<HTMLDivElement>(null);
  const diffRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!comparison || duration === 0 || !mainRef.current || !diffRef.current) return;
    const s = store.getState();
    const c = colors();
    const overlay = layout === 'overlay';
    const channels: Float32Array[] = [];
    const split: { overlay: boolean; waveColor: string; progressColor: string }[] = [];
    for (const [peaks, color] of [
      [audioSelectors.peaksA(s), c.a],
      [audioSelectors.peaksB(s), c.b],
    ] as const) {
      if (peaks.length === 0) continue;
      channels.push(peaks);
      split.push({ overlay, waveColor: `${color}b0`, progressColor: `${color}b0` });
    }
    const regions = RegionsPlugin.create();
    const common = { duration, cursorColor: c.cursor, cursorWidth: 2, minPxPerSec: s.zoom, autoScroll: false, autoCenter: false, dragToSeek: false };
    const main = WaveSurfer.create({ ...common, container: mainRef.current, peaks: channels, height: overlay ? 150 : 80, splitChannels: split, plugins: [regions] });
    const diffPeaks = audioSelectors.peaksD(s).peaks;
    const diff = WaveSurfer.create({
      ...common,
      container: diffRef.current,
      peaks: [diffPeaks.length ? diffPeaks : new Float32Array([0, 0])],
      height: 56,
      waveColor: c.d,
      progressColor: c.d,
      hideScrollbar: true,
    });
    adoptWavesurferStyles(main);
    adoptWavesurferStyles(diff);
    if (divergenceTime !== undefined && duration > 0) {
      const label = `first divergence at ${fmtTime(divergenceTime)}`;
      addMarker(main, divergenceTime / duration, c.marker, label).dataset.testid = 'divergence-marker';
      addMarker(diff, divergenceTime / duration, c.marker, label);
    }
    let ready = false;
    const applyZoom = (z: number) => {
      if (!ready) return;
      main.zoom(z);
      diff.zoom(z);
    };
    main.on('ready', () => {
      ready = true;
      applyZoom(store.getState().zoom);
      main.setTime(store.getState().position);
    });
    diff.on('ready', () => diff.setTime(store.getState().position));
    main.on('interaction', (t) => store.getState().seek(t));
    diff.on('interaction', (t) => store.getState().seek(t));
    main.on('scroll', (start, end, left) => {
      store.getState().setVisible(start, end);
      if (diff.getScroll() !== left) diff.setScroll(left);
    });
    diff.on('scroll', (_start, _end, left) => {
      if (main.getScroll() !== left) main.setScroll(left);
    });
    regions.enableDragSelection({ color: `${c.marker}22` });
    const loopFrom = (r: { start: number; end: number }) => store.getState().setLoopRegion({ start: r.start, end: r.end });
    regions.on('region-created', (region) => {
      for (const other of regions.getRegions()) if (other !== region) other.remove();
      loopFrom(region);
    });
    regions.on('region-updated', loopFrom);
    const unsubscribe = store.subscribe((now, before) => {
      if (now.zoom !== before.zoom) applyZoom(now.zoom);
      if (now.position !== before.position) {
        main.setTime(now.position);
        diff.setTime(now.position);
        // Keep the playhead in view while playing.
        const { start, end } = now.visible;
        if (now.playing && end > start && (now.position < start || now.position > end)) main.setScrollTime(now.position);
      }
      if (now.loop !== before.loop && !now.loop) regions.clearRegions();
    });
    return () => {
      unsubscribe();
      main.destroy();
      diff.destroy();
    };
  }, [comparison, layout, duration, divergenceTime, store]);

  const onWheel = (e: React.WheelEvent) => {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    const s = store.getState();
    const width = mainRef.current?.clientWidth ?? 1000;
    const current = s.zoom > 0 ? s.zoom : width / Math.max(duration, 1e-3);
    s.setZoom(current * (e.deltaY < 0 ? 1.25 : 0.8));
  };

  if (!comparison) return <section className="waveforms empty" aria-label="Waveforms"><p className="muted">Synthesize A/B, import two WAV files or open a comparison from history to see the waveforms.</p></section>;
  if (duration === 0) return <section className="waveforms empty" aria-label="Waveforms"><p className="muted">This comparison has no audio (traces only): see the step trace and codes below.</p></section>;
  return (
    <section className="waveforms" aria-label="Waveforms" onWheel={onWheel}>
      <ZoomBar duration={duration} />
      <div className="track-label">
        <span className="swatch swatch-a" /> A <span className="swatch swatch-b" /> B{' '}
        <span className="muted">— drag to select a loop region, click to seek, Ctrl+wheel to zoom</span>
      </div>
      <div ref={mainRef} className="track" data-testid="waveform-ab" />
      <div className="track-label">
        <span className="swatch swatch-d" /> Difference A − B <span className="muted">(shown ×{diffScale.toPrecision(3)})</span>
      </div>
      <div ref={diffRef} className="track" data-testid="waveform-diff" />
      {spectrogram && <SpectrogramView />}
      <PositionLine />
    </section>
  );
}

function PositionLine() {
  const position = useStudio(playbackSelectors.position);
  const duration = useStudio(audioSelectors.duration);
  return (
    <p className="position muted" data-testid="position-label">
      {fmtTime(position)} / {fmtTime(duration)}
    </p>
  );
}

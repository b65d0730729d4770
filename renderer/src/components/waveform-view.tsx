import { useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import { fmtTime } from '../lib/format.js';
import { pickTier } from '../lib/peaks.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { viewSelectors } from '../store/view/view-slice.js';
import { SpectrogramView } from './spectrogram-view.js';
import { useStoreApi, useStudio } from './store-context.js';
import { colors, useColorScheme } from './theme.js';
import { addMarker, createWaveSurfer, drawWithoutProgressClone } from './wavesurfer-csp.js';
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
  const scheme = useColorScheme();
  const mainRef = useRef<HTMLDivElement>(null);
  const diffRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!comparison || duration === 0 || !mainRef.current || !diffRef.current) return;
    const s = store.getState();
    const c = colors();
    const overlay = layout === 'overlay';
    const tiers = [audioSelectors.peaksA(s), audioSelectors.peaksB(s)].filter((t) => t.length > 0);
    const colours = [audioSelectors.peaksA(s).length > 0 ? c.a : undefined, audioSelectors.peaksB(s).length > 0 ? c.b : undefined].filter((x): x is string => x !== undefined);
    const diffTiers = audioSelectors.peaksD(s).tiers;
    const timelinePx = (z: number) => (z > 0 ? z * duration : (mainRef.current?.clientWidth ?? 1200));
    let tier = pickTier(tiers[0], timelinePx(s.zoom));
    const mainPeaks = () => tiers.map((t) => t[Math.min(tier, t.length - 1)].peaks);
    const diffPeaks = () => (diffTiers.length ? [diffTiers[Math.min(tier, diffTiers.length - 1)].peaks] : [new Float32Array([0, 0])]);
    // Transparent progress: the played part looks the same as the rest (the cursor shows the position).
    const split = colours.map((color) => ({ overlay, waveColor: overlay ? `${color}b0` : color, progressColor: 'rgba(0,0,0,0)' }));
    const tall = window.innerHeight > 1000;
    const regions = RegionsPlugin.create();
    const common = { duration, cursorColor: c.cursor, cursorWidth: 2, minPxPerSec: s.zoom, autoScroll: false, autoCenter: false, dragToSeek: false };
    const main = createWaveSurfer({ ...common, container: mainRef.current, peaks: mainPeaks(), height: overlay ? (tall ? 220 : 150) : tall ? 110 : 80, splitChannels: split, plugins: [regions] });
    const diff = createWaveSurfer({
      ...common,
      container: diffRef.current,
      peaks: diffPeaks(),
      height: tall ? 80 : 56,
      waveColor: c.d,
      progressColor: 'rgba(0,0,0,0)',
      hideScrollbar: true,
    });
    for (const ws of [main, diff]) {
      drawWithoutProgressClone(ws);
    }
    if (divergenceTime !== undefined && duration > 0) {
      const label = `first divergence at ${fmtTime(divergenceTime)}`;
      addMarker(main, divergenceTime / duration, c.marker, label).dataset.testid = 'divergence-marker';
      addMarker(diff, divergenceTime / duration, c.marker, label);
    }
    const ready = new Set<WaveSurfer>();
    // Zoom picks the peak tier with about one bucket per pixel; a new tier replaces the peaks in place.
    const applyZoom = (z: number) => {
      const next = pickTier(tiers[0], timelinePx(z));
      const swap = next !== tier;
      tier = next;
      for (const ws of ready) {
        if (swap) ws.setOptions({ peaks: ws === main ? mainPeaks() : diffPeaks(), duration, minPxPerSec: z });
        else ws.zoom(z);
      }
    };
    for (const ws of [main, diff]) {
      ws.on('ready', () => {
        ready.add(ws);
        ws.zoom(store.getState().zoom);
        ws.setTime(store.getState().position);
        if (ws === diff) diff.setScroll(main.getScroll());
      });
    }
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
  }, [comparison, layout, duration, divergenceTime, store, scheme]);

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

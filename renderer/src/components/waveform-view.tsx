import { useRef } from 'react';
import { unmeasurableWords } from '../../../electron/common/report/audio-check.js';
import { fmt, fmtTime } from '../lib/format.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { timelineSelectors } from '../store/view/timeline-selectors.js';
import { viewSelectors } from '../store/view/view-selectors.js';
import { ColourKey } from './colour-key.js';
import { useFitToWindow } from './fit-to-window.js';
import { RegionMetrics } from './region-metrics.js';
import { SpectrogramScale } from './spectrogram-scale.js';
import { useStudio } from './store-context.js';
import { Lanes } from './timeline/lanes.js';
import { ZoomBar } from './zoom-bar.js';

/**
 * The comparison on one time axis: the view controls, the lanes (timeline/lanes.tsx), and a line with
 * the range in view, the playhead and what the difference lane shows.
 */
export function WaveformView() {
  const comparison = useStudio(comparisonSelectors.comparison);
  const duration = useStudio(timelineSelectors.duration);
  const hasAudio = useStudio(audioSelectors.hasAudio);
  const spectrogram = useStudio(viewSelectors.spectrogram);
  const lanes = useRef<HTMLDivElement>(null);
  // Lanes taller than the window (spectrograms, or a codes lane of 16 codebooks in a short one) scroll inside, so the transport and tabs stay in view.
  useFitToWindow(lanes, comparison !== undefined && duration > 0);
  if (!comparison) return <section className="waveforms empty" aria-label="Waveforms"><p className="muted">Synthesize A/B, import two WAV files or open a comparison from history to see the waveforms.</p></section>;
  if (duration === 0) return <section className="waveforms empty" aria-label="Waveforms"><p className="muted">This comparison has no audio (traces only): see the step trace and codes below.</p></section>;
  return (
    <section className="waveforms" aria-label="Waveforms">
      {!hasAudio && <p className="muted">This comparison has no audio (traces only): the lanes show its steps and codes.</p>}
      <ZoomBar />
      <ColourKey />
      <div ref={lanes} className="lanes-fit">
        <Lanes />
      </div>
      {spectrogram && <SpectrogramScale />}
      <ViewLine />
      <RegionMetrics />
    </section>
  );
}

/** What is in view and where the playhead is; the difference's null depth as drawn. */
function ViewLine() {
  const vp = useStudio(viewSelectors.viewport);
  const position = useStudio(playbackSelectors.position);
  const duration = useStudio(timelineSelectors.duration);
  const diff = useStudio(audioSelectors.difference);
  const unmeasurable = unmeasurableWords(useStudio(comparisonSelectors.audioCheck));
  const alignment = useStudio(audioSelectors.alignment);
  const span = vp.end - vp.start;
  const spanText = span >= 1 ? fmt(span, 3, ' s') : fmt(span * 1000, span >= 0.01 ? 1 : 3, ' ms');
  return (
    <p className="position muted" data-testid="position-label">
      <span data-testid="view-range" data-start={vp.start.toFixed(6)} data-end={vp.end.toFixed(6)}>
        View {fmtTime(vp.start)}–{fmtTime(vp.end)} ({spanText})
      </span>
      {' · '}
      Playhead {fmtTime(position)} / {fmtTime(duration)}
      {diff.samples.length > 0 && (
        <span data-testid="diff-null" data-null-db={diff.nullDb.toFixed(2)}>
          {' · '}
          {diff.aligned ? `Difference aligned (B shifted ${fmt(alignment?.lag ?? NaN, 2)} samples, gain ${fmt(20 * Math.log10(Math.abs(alignment?.gain ?? NaN)), 2, ' dB')})` : 'Difference raw A − B at lag 0'}: null {!Number.isFinite(diff.nullDb) && unmeasurable ? unmeasurable : fmt(diff.nullDb, 1, ' dB')}, shown ×{diff.scale.toPrecision(3)}
          {alignment && !alignment.reliable && ' (lag unreliable: the takes do not correlate)'}
        </span>
      )}
    </p>
  );
}

import { fmt, fmtTime } from '../lib/format.js';
import { sliderFromSpan, spanFromSlider } from '../lib/viewport.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { timelineSelectors } from '../store/view/timeline-selectors.js';
import { viewSelectors } from '../store/view/view-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const SLIDER = 1000;

/**
 * The shared viewport's controls: zoom (log slider from the whole take to single samples), scroll,
 * fit, zoom to the selection or the first divergence; vertical zoom and dB scale of the waveforms; the
 * layout, spectrogram, taller codes and aligned/raw difference toggles.
 */
export function ZoomBar() {
  const store = useStoreApi();
  const duration = useStudio(timelineSelectors.duration);
  const least = useStudio(timelineSelectors.minSpan);
  const viewSpan = useStudio(viewSelectors.viewSpan);
  const start = useStudio(viewSelectors.viewportStart);
  const laneWidth = useStudio(viewSelectors.laneWidth);
  const rate = useStudio(audioSelectors.sampleRate);
  const layout = useStudio(viewSelectors.layout);
  const spectrogram = useStudio(viewSelectors.spectrogram);
  const codesTall = useStudio(viewSelectors.codesTall);
  const hasCodes = useStudio(comparisonSelectors.hasCodes);
  const diffAligned = useStudio(viewSelectors.diffAligned);
  const ampGain = useStudio(viewSelectors.ampGain);
  const ampDb = useStudio(viewSelectors.ampDb);
  const loop = useStudio(playbackSelectors.loop);
  const divergenceTime = useStudio(comparisonSelectors.divergenceTime);
  const frameRate = useStudio(comparisonSelectors.frameRate);
  const alignment = useStudio(audioSelectors.alignment);
  const hasAudio = useStudio(audioSelectors.hasAudio);
  const s = () => store.getState();
  const zoomPos = Math.round(SLIDER * sliderFromSpan(viewSpan, duration, least));
  const room = duration - viewSpan;
  const scrollPos = room > 0 ? Math.round((SLIDER * start) / room) : 0;
  const samplesPerPx = rate > 0 && laneWidth > 0 ? (viewSpan * rate) / laneWidth : 0;
  const zoomText = rate > 0 ? (samplesPerPx >= 1 ? `${fmt(samplesPerPx, samplesPerPx < 10 ? 1 : 0)} samples per pixel` : `${fmt(1 / samplesPerPx, 1)} pixels per sample`) : `${fmt(viewSpan, 3)} s in view`;
  return (
    <div className="zoom-bar" role="toolbar" aria-label="View">
      <label htmlFor="zoom">Zoom</label>
      <input
        id="zoom"
        type="range"
        min={0}
        max={SLIDER}
        value={zoomPos}
        aria-valuetext={zoomPos === 0 ? 'whole take' : zoomText}
        title={zoomText}
        onChange={(e) => {
          const next = spanFromSlider(Number(e.target.value) / SLIDER, duration, least);
          const vp = s().viewport;
          s().showAround((vp.start + vp.end) / 2, next);
        }}
      />
      <label htmlFor="scroll">Scroll</label>
      <input id="scroll" type="range" min={0} max={SLIDER} value={scrollPos} disabled={room <= 0} aria-valuetext={`${fmtTime(start)} to ${fmtTime(start + viewSpan)}`} onChange={(e) => s().setViewport({ start: (Number(e.target.value) / SLIDER) * room, end: (Number(e.target.value) / SLIDER) * room + viewSpan })} />
      <button type="button" className="small" onClick={() => s().fit()} title={`Fit the whole ${duration.toFixed(2)} s in view (0 on the lanes)`}>
        Fit
      </button>
      <button type="button" className="small" disabled={!loop} onClick={() => loop && s().setViewport(loop)} title="Show the selected region across the view">
        Zoom to selection
      </button>
      <button
        type="button"
        className="small"
        disabled={divergenceTime === undefined}
        onClick={() => divergenceTime !== undefined && s().showAround(divergenceTime, frameRate > 0 ? 4 / frameRate : 0.2)}
        title="Show the four frames around the first divergence"
      >
        Zoom to divergence
      </button>
      {hasAudio && (
        <>
          <label htmlFor="amp-zoom">Amplitude</label>
          <input id="amp-zoom" type="range" min={0} max={200} value={Math.round(100 * Math.log10(ampGain))} aria-valuetext={`×${fmt(ampGain, 1)}`} title={`Vertical zoom ×${fmt(ampGain, 1)}`} onChange={(e) => s().setAmpGain(10 ** (Number(e.target.value) / 100))} />
          <button type="button" className="small" aria-pressed={ampDb} onClick={() => s().toggleAmpDb()} title="Waveform amplitude in dB (−60 to 0 dBFS), so quiet passages show">
            dB
          </button>
        </>
      )}
      <button type="button" className="small" aria-pressed={layout === 'stacked'} onClick={() => s().setLayout(layout === 'overlay' ? 'stacked' : 'overlay')}>
        {layout === 'overlay' ? 'Stack A/B' : 'Overlay A/B'}
      </button>
      {hasAudio && (
        <button type="button" className="small" aria-pressed={spectrogram} onClick={() => s().toggleSpectrogram()}>
          Spectrogram
        </button>
      )}
      {hasCodes && (
        <button type="button" className="small" aria-pressed={codesTall} onClick={() => s().toggleCodesTall()} title="The codes lane at twice its height per codebook">
          Taller codes
        </button>
      )}
      {hasAudio && alignment && (
        <button
          type="button"
          className="small"
          aria-pressed={diffAligned && alignment.reliable}
          disabled={!alignment.reliable}
          onClick={() => s().toggleDiffAligned()}
          title={
            alignment.reliable
              ? `Difference lane and D playback: A − g·B shifted by the measured lag (${fmt(alignment.lag, 2)} samples, gain ${fmt(20 * Math.log10(Math.abs(alignment.gain)), 2, ' dB')}); off: raw A − B at lag 0`
              : 'The lag is unreliable (the takes do not correlate), so the difference is raw A − B at lag 0'
          }
        >
          Aligned difference
        </button>
      )}
    </div>
  );
}

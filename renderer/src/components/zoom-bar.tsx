import { MAX_ZOOM, viewSelectors } from '../store/view/view-slice.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Zoom of the shared timeline (log slider, pixels per second) and the layout and spectrogram toggles. */
export function ZoomBar({ duration }: { duration: number }) {
  const store = useStoreApi();
  const zoom = useStudio(viewSelectors.zoom);
  const layout = useStudio(viewSelectors.layout);
  const spectrogram = useStudio(viewSelectors.spectrogram);
  const slider = zoom > 0 ? Math.round(100 * Math.log10(zoom)) : 0;
  return (
    <div className="zoom-bar" role="toolbar" aria-label="View">
      <label htmlFor="zoom">Zoom</label>
      <input
        id="zoom"
        type="range"
        min={0}
        max={Math.round(100 * Math.log10(MAX_ZOOM))}
        value={slider}
        aria-valuetext={zoom > 0 ? `${Math.round(zoom)} pixels per second` : 'whole take'}
        onChange={(e) => store.getState().setZoom(Number(e.target.value) === 0 ? 0 : 10 ** (Number(e.target.value) / 100))}
      />
      <button type="button" className="small" onClick={() => store.getState().setZoom(0)} title={`Fit the whole ${duration.toFixed(2)} s in view`}>
        Fit
      </button>
      <button type="button" className="small" aria-pressed={layout === 'stacked'} onClick={() => store.getState().setLayout(layout === 'overlay' ? 'stacked' : 'overlay')}>
        {layout === 'overlay' ? 'Stack A/B' : 'Overlay A/B'}
      </button>
      <button type="button" className="small" aria-pressed={spectrogram} onClick={() => store.getState().toggleSpectrogram()}>
        Spectrogram
      </button>
    </div>
  );
}

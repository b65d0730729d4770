import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/**
 * An import whose waveforms are on screen while the host measures it: what is happening, a progress bar
 * (indeterminate: the host's comparison of two WAVs reports no steps) and Cancel. Shown in place of
 * the verdict (verdict-bar.tsx).
 */
export function MeasuringStatus() {
  const store = useStoreApi();
  const measuring = useStudio(comparisonSelectors.measuring);
  const label = useStudio(comparisonSelectors.measuringLabel);
  if (!measuring) return null;
  const done = measuring.progress?.fraction;
  return (
    <div className="measuring" aria-live="polite" data-testid="measuring">
      <progress max={1} {...(done ? { value: done } : {})} aria-label="Measuring progress" />
      <span className="muted" data-testid="measuring-label">{label}</span>
      <button type="button" className="small" disabled={measuring.cancelling} onClick={() => void store.getState().cancelMeasuring()} title="Stop the host's measuring: nothing is saved and these waveforms leave the screen">
        Cancel
      </button>
    </div>
  );
}

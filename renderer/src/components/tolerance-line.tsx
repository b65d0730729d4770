import { useState } from 'react';
import { logitClosenessWords } from '../../../electron/common/forensics/logit-closeness.js';
import { fmt } from '../lib/format.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { canRejudge, suggestTolerances, type UiTolerances } from '../store/tolerance/judgement.js';
import { viewSelectors } from '../store/view/view-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const num = (v: number | string | undefined) => (typeof v === 'string' ? Number(v) : (v ?? NaN));

/**
 * The tolerances the verdict is judged under (the CLI's --logit-tol and --audio-tol, same defaults),
 * editable: the verdict above is judged again with the CLI's own rule. Says how far a diverged comparison
 * went, or how close to the tolerances another came (largest logit |Δ| and its step, non-finite values
 * where there are any, the largest audio difference or "audio bit-identical"), and
 * offers the tolerances that would admit it when only numbers differ, or says why none can (a NaN or an
 * infinity on one side).
 */
export function ToleranceLine() {
  const store = useStoreApi();
  const comparison = useStudio(comparisonSelectors.comparison);
  const divergence = useStudio(comparisonSelectors.divergence);
  const report = useStudio(comparisonSelectors.reportDivergence);
  const set = useStudio(viewSelectors.tolerances);
  const m = useStudio(comparisonSelectors.metrics);
  const verdict = useStudio(comparisonSelectors.verdict);
  if (!comparison || !divergence || !report || !canRejudge(comparison)) return null;
  const current: UiTolerances = set ?? { logitAbs: report.tolerances.logitAbs, audioAbs: report.tolerances.audioAbs };
  const maxAbs = num(m?.maxAbsDiff);
  const suggestion = suggestTolerances(comparison, maxAbs, m?.lengthA === m?.lengthB);
  const suggested = suggestion && 'tolerances' in suggestion ? suggestion.tolerances : undefined;
  const offer = suggested && (suggested.logitAbs !== current.logitAbs || suggested.audioAbs !== current.audioAbs) ? suggested : undefined;
  const apply = (tol: UiTolerances) => {
    const same = tol.logitAbs === report.tolerances.logitAbs && tol.audioAbs === report.tolerances.audioAbs;
    store.getState().setTolerances(same ? undefined : tol);
  };
  return (
    <div className="tolerance-line" data-testid="tolerances">
      <ToleranceField label="Logit tolerance" flag="--logit-tol" value={current.logitAbs} onChange={(logitAbs) => apply({ ...current, logitAbs })} />
      <ToleranceField label="Audio tolerance" flag="--audio-tol" value={current.audioAbs} onChange={(audioAbs) => apply({ ...current, audioAbs })} />
      <span className="muted" data-testid="closeness">
        {/* Diverged: how far apart it went; otherwise how close to the tolerances it came. */}
        {verdict === 'diverged' ? 'Largest differences: ' : 'Closest to the tolerances: '}
        {logitClosenessWords(divergence)}
        {'; '}
        {m?.bitIdentical ? 'audio bit-identical' : `audio max |A−B| ${fmt(maxAbs, 6)}`}
      </span>
      {set && (
        <button type="button" className="small" onClick={() => store.getState().setTolerances(undefined)}>
          Reset to the run’s tolerances
        </button>
      )}
      {offer && (
        <button type="button" className="small" onClick={() => apply(offer)} title="The codes are equal at every step: these tolerances just admit the largest differences measured">
          Use logit {offer.logitAbs}, audio {offer.audioAbs}
        </button>
      )}
      {suggestion && 'refusal' in suggestion && (
        <span className="muted" data-testid="no-tolerance">
          The codes are equal, but {suggestion.refusal}
        </span>
      )}
    </div>
  );
}

/** A tolerance input that commits a valid non-negative number (on change) and shows the CLI flag it stands for. */
function ToleranceField({ label, flag, value, onChange }: { label: string; flag: string; value: number; onChange(v: number): void }) {
  const [text, setText] = useState<string | undefined>(undefined);
  const id = `tol-${flag.slice(2)}`;
  const shown = text ?? String(value);
  const parsed = Number(shown);
  const valid = shown.trim() !== '' && Number.isFinite(parsed) && parsed >= 0;
  return (
    <span className="tolerance-field">
      <label htmlFor={id} title={`As ${flag} of parity compare`}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        size={7}
        value={shown}
        aria-invalid={!valid}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= 0) onChange(v);
        }}
        onBlur={() => setText(undefined)}
      />
    </span>
  );
}

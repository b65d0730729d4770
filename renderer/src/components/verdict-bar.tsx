import { useLayoutEffect } from 'react';
import { flipLines } from '../../../electron/common/forensics/divergence-summary.js';
import { verdictWords } from '../../../electron/common/forensics/verdict.js';
import { audioNotComparedReason } from '../../../electron/common/report/audio-check.js';
import type { Verdict as VerdictValue } from '../../../electron/common/report/report.js';
import { minusSigns } from '../lib/format.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { forensicsSelectors } from '../store/comparison/forensics-selectors.js';
import { sidesSelectors } from '../store/comparison/sides-selectors.js';
import { historySelectors } from '../store/history/history-selectors.js';
import { takesResultFocus } from '../lib/result-focus.js';
import { DrillLink } from './drill-link.js';
import { ExportFixtureButton } from './export-fixture-button.js';
import { MeasuringStatus } from './measuring-status.js';
import { useStoreApi, useStudio } from './store-context.js';
import { ToleranceLine } from './tolerance-line.js';

const VERDICT_TEXT: Record<string, string> = {
  identical: 'Identical: A and B are bit-identical',
  'within-tolerance': 'Within tolerance: same codes at every step; small numeric differences in logits or audio',
  diverged: 'Diverged: A and B are different renderings',
  'degenerate-audio': 'Degenerate audio: not compared',
};

/** verdictWords' numerically-equivalent readings (docs/forensics.md), said for the studio. */
const EQUIVALENT_TEXT: Record<string, string> = {
  'diverged at a near-tie (numerically equivalent)': 'Diverged at a near-tie (numerically equivalent): the differing codes were nearly tied on both sides',
  'diverged by numeric drift only (numerically equivalent under teacher forcing)': 'Diverged by numeric drift only (numerically equivalent under teacher forcing)',
};

/** The studio's sentence for a verdict and its words; a partial comparison's "within tolerance over … only" is said as such. */
const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

function verdictText(verdict: string, words: string, audioReason?: string): string {
  if (audioReason) return verdict === 'degenerate-audio' ? sentence(audioReason) : `${verdictText(verdict, words)}; ${audioReason}`;
  if (verdict === 'within-tolerance' && words !== verdict) return `${words[0].toUpperCase()}${words.slice(1)}: partial traces, the other fields were not compared`;
  return EQUIVALENT_TEXT[words] ?? VERDICT_TEXT[verdict] ?? verdict;
}

/** The verdict, what A and B are, a fault that never ran, the report's warnings and WAV reading notes, and the actions on the comparison on screen. */
export function VerdictBar() {
  const hasComparison = useStudio(comparisonSelectors.hasComparison);
  const historyId = useStudio(comparisonSelectors.historyId);
  // A new result (not the measuring placeholder, whose id is ''): its verdict at the top of the pane, focused.
  useLayoutEffect(() => {
    if (!historyId) return;
    const results = document.getElementById('results');
    if (results) results.scrollTop = 0;
    if (takesResultFocus(document.activeElement, document.body)) document.getElementById('verdict')?.focus({ preventScroll: true });
  }, [historyId]);
  if (!hasComparison) return null;
  return (
    <>
      <div className="verdict-bar">
        <div className="verdict-main">
          <Verdict />
        </div>
        <div className="result-actions">
          <ExportFixtureButton />
          <DrillLink />
        </div>
      </div>
      <FaultWarning />
      <ReportWarnings />
      <SidesLine />
      <ToleranceLine />
    </>
  );
}

function Verdict() {
  const verdict = useStudio(comparisonSelectors.verdict);
  const divergence = useStudio(comparisonSelectors.divergence);
  const teacherForced = useStudio(forensicsSelectors.teacherForced);
  const measuring = useStudio(comparisonSelectors.measuring);
  const audioReason = audioNotComparedReason(useStudio(comparisonSelectors.audioCheck));
  if (measuring) {
    return (
      <>
        <h2 id="verdict" tabIndex={-1} data-testid="verdict" className="badge verdict-none">
          Measuring…
        </h2>
        <MeasuringStatus />
      </>
    );
  }
  if (!verdict && audioReason) {
    return (
      <>
        <h2 id="verdict" tabIndex={-1} data-testid="verdict" className="badge verdict-degenerate-audio">
          {sentence(audioReason)}
        </h2>
        <span className="muted">No verdict over imported audio; the metrics below say which could be measured.</span>
      </>
    );
  }
  if (!verdict) {
    return (
      <>
        <h2 id="verdict" tabIndex={-1} data-testid="verdict" className="badge verdict-none">
          No verdict: imported audio is measured, not judged
        </h2>
        <span className="muted">The verdict rule needs step traces; see the metrics and listen.</span>
      </>
    );
  }
  return (
    <>
      <h2 id="verdict" tabIndex={-1} data-testid="verdict" className={`badge verdict-${verdict}`}>
        {verdictText(verdict, verdictWords(verdict as VerdictValue, divergence, teacherForced), audioReason)}
      </h2>
      {divergence?.firstStep != null && (
        <span className="muted" data-testid="divergence-summary">
          First divergence: step {divergence.firstStep}
          {divergence.stage ? ` (${divergence.stage})` : ''}
          {divergence.detail ? ` — ${minusSigns(divergence.detail)}` : ''}
        </span>
      )}
      {divergence?.flip && (
        <span className="muted" data-testid="flip-summary" title={minusSigns(divergence.flip.detail)}>
          {minusSigns(flipLines(divergence.flip)[0])}
        </span>
      )}
    </>
  );
}

/** A fault asked for in a profile that never acted: the verdict then says nothing about that fault. */
function FaultWarning() {
  const warning = useStudio(sidesSelectors.faultWarning);
  if (!warning) return null;
  return (
    <div role="alert" className="fault-warning" data-testid="fault-warning">
      <strong>
        {warning.none
          ? 'The fault was not applied: this comparison ran without it and is no evidence about it.'
          : 'Not every fault was applied: the verdict covers only the faults that ran.'}
      </strong>
      <ul>
        {warning.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What the report says it ran despite (report.warnings, e.g. two trace headers at different frame rates),
 * then what was tolerated reading each side's WAV (the CLI's "note:" lines), labelled with side and file.
 */
function ReportWarnings() {
  const warnings = useStudio(comparisonSelectors.warnings);
  const notes = useStudio(comparisonSelectors.sourceNotes);
  const lines = [...(warnings ?? []), ...(notes ?? [])];
  if (lines.length === 0) return null;
  return (
    <div role="alert" className="fault-warning" data-testid="report-warnings">
      <strong>{lines.length === 1 ? 'Warning' : `${lines.length} warnings`}: the comparison ran, but read it with this in mind.</strong>
      <ul>
        {lines.map((line, i) => (
          <li key={`${i}:${line}`}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** Which file or profile is A and which is B; an imported pair can be swapped with one click. */
function SidesLine() {
  const store = useStoreApi();
  const names = useStudio(sidesSelectors.names);
  const canSwap = useStudio(historySelectors.canSwap);
  const busy = useStudio(historySelectors.busy);
  if (!names) return null;
  const side = (label: 'A' | 'B', name: string, wav?: string) => (
    <span className="side-name" data-testid={`side-${label.toLowerCase()}`}>
      <span className={`swatch swatch-${label.toLowerCase()}`} aria-hidden="true" /> {label}: <strong>{name}</strong>
      {wav && <span className="muted"> (audio {wav})</span>}
    </span>
  );
  return (
    <p className="sides" data-testid="sides">
      {names.kind === 'endpoints' && <span className="imported-tag">Endpoints</span>}
      {names.kind !== 'profiles' && names.kind !== 'endpoints' && <span className="imported-tag">Imported</span>}
      {side('A', names.a, names.wavA)}
      {side('B', names.b, names.wavB)}
      {names.detail && <span className="muted small-text" data-testid="sides-detail">{names.detail}</span>}
      {names.kind !== 'profiles' && names.kind !== 'endpoints' && <span className="muted small-text">Not made with the settings on the left.</span>}
      {canSwap && (
        <button type="button" className="small" disabled={busy !== undefined} onClick={() => void store.getState().swapImport()} title="Import the same files again with A and B exchanged (a new history entry)">
          Swap A/B
        </button>
      )}
    </p>
  );
}

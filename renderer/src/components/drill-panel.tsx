import { useLayoutEffect, useRef } from 'react';
import { drillFocusTarget, type DrillStatus } from '../lib/drill-focus.js';
import { drillSelectors } from '../store/drill/drill-selectors.js';
import { shortcutLabel } from '../lib/shortcut-keys.js';
import { DrillGraph } from './drill-graph.js';
import { useStoreApi, useStudio } from './store-context.js';

/** "Drill down" on a diverged synthesized comparison: the first input and node that differ inside the first divergent step. */
export function DrillPanel() {
  const store = useStoreApi();
  const can = useStudio(drillSelectors.canDrill);
  const status = useStudio(drillSelectors.status);
  const cancelling = useStudio(drillSelectors.cancelling);
  const percent = useStudio(drillSelectors.percent);
  const label = useStudio(drillSelectors.progressLabel);
  const error = useStudio(drillSelectors.error);
  const lines = useStudio(drillSelectors.lines);
  const report = useStudio(drillSelectors.report);
  const moduleLines = useStudio(drillSelectors.moduleLines);
  const section = useRef<HTMLElement>(null);
  const drillButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const before = useRef<DrillStatus | undefined>(status);
  // Before paint, so the focus is never seen on <body> (where a disabled button leaves it).
  useLayoutEffect(() => {
    const active = document.activeElement;
    const focusHere = !active || active === document.body || (section.current?.contains(active) ?? false);
    const target = drillFocusTarget(before.current, status, focusHere);
    before.current = status;
    if (target) ({ cancel: cancelButton, result: resultHeading, drill: drillButton })[target].current?.focus();
  }, [status]);
  if (!can) return moduleLines ? <ModuleDrill lines={moduleLines} /> : null;
  const running = status === 'running';
  return (
    <section ref={section} className="drill" aria-label="Drill down" data-testid="drill">
      {/* What the drill found, first: the sentence, then the graph and the lines. */}
      {report && (
        <p className="drill-diagnosis" data-testid="drill-diagnosis">
          {report.summary}
        </p>
      )}
      <button ref={drillButton} type="button" disabled={running} onClick={() => void store.getState().drillCurrent()} title="Re-run the first divergent step with every node output promoted, as parity compare --drill does, and name the first input and node that differ or hold a NaN">
        {running ? 'Drilling down…' : status === 'done' || lines ? 'Drill down again' : 'Drill down'}
      </button>
      {running && (
        <div className="drill-progress" aria-live="polite">
          <progress max={100} value={percent} aria-label="Drill-down progress" />
          <span data-testid="drill-progress">{label}</span>
          <button ref={cancelButton} type="button" disabled={cancelling} onClick={() => void store.getState().cancelDrill()} title={`Stop the drill-down; the comparison and any drill saved with it stay as they were (${shortcutLabel('escape')})`} aria-keyshortcuts="Escape">
            Cancel
          </button>
        </div>
      )}
      {status === 'cancelled' && <p data-testid="drill-status">Drill-down cancelled; nothing was saved{lines ? ' (the drill below is the one saved before)' : ''}.</p>}
      {status === 'failed' && (
        <p role="alert" className="error">
          Drill-down failed: {error}
        </p>
      )}
      {lines && (
        <>
          <h3 ref={resultHeading} tabIndex={-1} className="drill-result-title">
            Drill-down result
          </h3>
          {report && <DrillGraph report={report} />}
          <details className="drill-text">
            <summary>As text (for copying)</summary>
            <pre className="drill-lines" data-testid="drill-lines">
              {lines.join('\n')}
            </pre>
          </details>
        </>
      )}
    </section>
  );
}

/** Imported traces with module sidecars: the first module whose output differs, found at import (nothing to run). */
function ModuleDrill({ lines }: { lines: string[] }) {
  return (
    <section className="drill" aria-label="Module drill-down" data-testid="module-drill">
      <h3 className="drill-result-title">Module drill-down</h3>
      {lines[0] && (
        <p className="drill-diagnosis" data-testid="drill-diagnosis">
          {lines[0].replace(/^Module drill-down: /, '')}
        </p>
      )}
      <pre className="drill-lines" data-testid="module-drill-lines">
        {lines.join('\n')}
      </pre>
    </section>
  );
}

import type { NumericsRow } from '../store/comparison/comparison-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { useStudio } from './store-context.js';

const STAGES = ['talker', 'codePredictor', 'vocoder'] as const;

/** NaN/Inf per stage (whole run and the steps that had any), the execution provider that ran and why it fell back. */
export function NumericsPanel() {
  const a = useStudio(comparisonSelectors.numericsA);
  const b = useStudio(comparisonSelectors.numericsB);
  const firstNonFinite = useStudio(comparisonSelectors.firstNonFinite);
  if (!a || !b) return <p className="muted">No engine numerics: this comparison was imported.</p>;
  return (
    <div className="numerics">
      <table aria-label="Numerics per side">
        <thead>
          <tr>
            <th scope="col">Side</th>
            <th scope="col">Profile</th>
            <th scope="col">Execution provider</th>
            {STAGES.map((st) => (
              <th scope="col" key={st}>
                {st} NaN / Inf
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[a, b].map((row) => (
            <SideRow key={row.side} row={row} />
          ))}
        </tbody>
      </table>
      {[a, b].map((row) =>
        row.fallback ? (
          <p key={row.side} className="warn" data-testid={`fallback-${row.side}`}>
            {row.side}: fell back — {row.fallback}
          </p>
        ) : null,
      )}
      {firstNonFinite && (firstNonFinite.a || firstNonFinite.b) && (
        <p className="warn">
          First non-finite value — A: {firstNonFinite.a ? `step ${firstNonFinite.a.step}, ${firstNonFinite.a.stage}` : 'none'}; B:{' '}
          {firstNonFinite.b ? `step ${firstNonFinite.b.step}, ${firstNonFinite.b.stage}` : 'none'}
        </p>
      )}
      {[a, b].map((row) =>
        row.badSteps.length > 0 ? (
          <details key={row.side}>
            <summary>
              {row.side}: {row.badSteps.length} step/stage entries with NaN or Inf
            </summary>
            <ul>
              {row.badSteps.slice(0, 200).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        ) : null,
      )}
    </div>
  );
}

function SideRow({ row }: { row: NumericsRow }) {
  return (
    <tr data-testid={`numerics-${row.side}`}>
      <th scope="row">{row.side}</th>
      <td>
        <code>{row.profile}</code>
      </td>
      <td>{row.executionProvider}</td>
      {STAGES.map((st) => (
        <td key={st} className={row.nan[st] || row.inf[st] ? 'bad' : ''}>
          {row.nan[st]} / {row.inf[st]}
        </td>
      ))}
    </tr>
  );
}

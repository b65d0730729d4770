import './drill-graph.css';
import type { DrillReport } from '../../../electron/common/report/drill.js';
import { fmt, minusSigns } from '../lib/format.js';
import { drillPath, drillWhere } from '../lib/drill-path.js';
import { heatColour, NeighbourhoodGraph, tensorStats as stats } from './drill-neighbourhood.js';

const num = (v: number) => (Number.isFinite(v) ? minusSigns(String(+v.toPrecision(3))) : fmt(v, 0));

/**
 * The drill-down inside the divergent step: the first divergent node's graph neighbourhood
 * (drill-neighbourhood.tsx) when the report has it; a report made before it was recorded shows the
 * path it does name: the network input the difference entered through, then the first node whose
 * output differs, each box coloured by its |Δ| (log scale), both sides' statistics in its tooltip and
 * in the table below.
 */
export function DrillGraph({ report }: { report: DrillReport }) {
  if (report.neighbourhood) {
    return (
      <div className="drill-graph" data-testid="drill-graph">
        <p className="muted drill-where">{drillWhere(report)}</p>
        <NeighbourhoodGraph neighbourhood={report.neighbourhood} />
      </div>
    );
  }
  const boxes = drillPath(report);
  if (boxes.length === 0) return null;
  return (
    <div className="drill-graph" data-testid="drill-graph">
      <p className="muted drill-where">{drillWhere(report)}</p>
      <ol className="drill-path" aria-label="Where the difference starts inside the step">
        {boxes.map((b, i) => (
          <li key={`${b.kind}:${b.title}`} className="drill-box" data-kind={b.kind} title={`A ${stats(b.a)}\nB ${stats(b.b)}`}>
            {i > 0 && (
              <span className="drill-edge" aria-hidden="true">
                → downstream →
              </span>
            )}
            <span className="drill-node" style={{ borderColor: heatColour(b.heat), boxShadow: `inset 4px 0 0 ${heatColour(b.heat)}` }}>
              <span className="drill-kind">{b.kind === 'input' ? 'first differing input' : 'first differing node'}</span>
              <strong>{b.title}</strong>
              {b.detail && <span className="muted">{b.detail}</span>}
              <span data-testid={`drill-${b.kind}-delta`}>
                {b.nan ? `${b.nan.count} NaN on ${b.nan.side === 'both' ? 'A and B' : b.nan.side}` : (b.nothingFinite ?? `max |Δ| ${num(b.maxAbsDiff)}`)}
                {b.differing ? ` over ${b.differing} element${b.differing === 1 ? '' : 's'}` : ''}
              </span>
            </span>
          </li>
        ))}
      </ol>
      <table className="drill-stats" aria-label="Tensor statistics of both sides">
        <thead>
          <tr>
            <th scope="col">Tensor</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
          </tr>
        </thead>
        <tbody>
          {boxes.map((t) => (
            <tr key={`${t.kind}:${t.title}`}>
              <th scope="row">{t.title}</th>
              <td>{stats(t.a)}</td>
              <td>{stats(t.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { scatterLayout } from '../lib/sweep-scatter-layout.js';

const W = 240;
const H = 120;
const PAD = { left: 34, right: 6, top: 6, bottom: 18 };

/** Correlation against ΔLU, one dot per case (sweep-scatter-layout.ts); a dot opens its case. */
export function SweepScatter({ cases, onOpen }: { cases: SummaryCase[]; onOpen: (c: SummaryCase) => void }) {
  const layout = scatterLayout(cases, W, H);
  if (layout.points.length === 0) return null;
  return (
    <figure className="sweep-scatter">
      <svg width={W + PAD.left + PAD.right} height={H + PAD.top + PAD.bottom} role="img" aria-label="Correlation against ΔLU, one dot per case">
        <g transform={`translate(${PAD.left},${PAD.top})`}>
          <rect className="sweep-scatter-box" x={0} y={0} width={W} height={H} />
          <line className="sweep-scatter-zero" x1={0} x2={W} y1={H / 2} y2={H / 2} />
          {layout.points.map((p) => (
            <circle key={p.key} className={`sweep-dot verdict-${p.verdict}`} cx={p.x} cy={p.y} r={3} data-testid="sweep-dot" onClick={() => onOpen(p.case)}>
              <title>{`${p.key}: correlation ${p.case.correlation!.toFixed(4)}, ΔLU ${p.case.loudnessDeltaLU!.toFixed(2)}`}</title>
            </circle>
          ))}
          <text className="sweep-scatter-label" x={-4} y={8} textAnchor="end">{`+${layout.yMax.toFixed(1)}`}</text>
          <text className="sweep-scatter-label" x={-4} y={H} textAnchor="end">{`−${layout.yMax.toFixed(1)}`}</text>
          <text className="sweep-scatter-label" x={0} y={H + 13}>{layout.xMin.toFixed(2)}</text>
          <text className="sweep-scatter-label" x={W} y={H + 13} textAnchor="end">1</text>
          <text className="sweep-scatter-label" x={W / 2} y={H + 13} textAnchor="middle">correlation</text>
        </g>
      </svg>
      <figcaption className="muted small-text">
        ΔLU (B − A) against correlation{layout.omitted > 0 ? `; ${layout.omitted} case${layout.omitted === 1 ? '' : 's'} without both values not shown` : ''}.
      </figcaption>
    </figure>
  );
}

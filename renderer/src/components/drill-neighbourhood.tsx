import { useMemo, useRef, useState } from 'react';
import type { DrillGraphNode, DrillNeighbourhood, TensorSummary } from '../../../electron/common/report/drill.js';
import { BOX, deltaWords, layoutNeighbourhood } from '../lib/drill-layout.js';
import { fmt, minusSigns } from '../lib/format.js';

const num = (v: number) => (Number.isFinite(v) ? minusSigns(String(+v.toPrecision(3))) : fmt(v, 0));
export const tensorStats = (t: TensorSummary) =>
  `[${num(Number(t.min))}, ${num(Number(t.max))}] mean ${num(Number(t.mean))}${t.nan ? ` · ${t.nan} NaN` : ''}${t.inf ? ` · ${t.inf} Inf` : ''} · shape [${t.shape.join('×')}]`;

/** Colour of a heat 0..1: green (matches) through amber to red (differs a lot, or NaN); grey when not compared. */
export const heatColour = (heat: number | undefined) => (heat === undefined ? 'hsl(0, 0%, 55%)' : `hsl(${Math.round(130 - 130 * heat)}, 70%, 42%)`);

const what = (n: DrillGraphNode) =>
  n.kind === 'input' ? `network input${n.role ? `: ${n.role}` : ''}` : [n.opType, n.layer === undefined ? undefined : `layer ${n.layer}`, n.tensor !== n.name ? `output ${n.tensor}` : undefined].filter(Boolean).join(' · ');

const delta = (n: DrillGraphNode) => (n.comparison ? deltaWords(n.comparison) : 'not compared (no counterpart in B)');

/** What a node's tooltip, label and details panel say: the node, its |Δ| and both sides' statistics. */
function describeNode(n: DrillGraphNode): string {
  const role = n.first ? 'first divergent node' : n.kind === 'input' ? 'network input' : n.onPath ? 'on the path back to the input' : 'input of the first divergent node';
  const stats = n.comparison ? `; A ${tensorStats(n.comparison.a)}; B ${tensorStats(n.comparison.b)}` : '';
  return `${n.name} (${role}${what(n) ? `, ${what(n)}` : ''}): ${delta(n)}${stats}`;
}

/** The box's two lines must fit its width: long names keep their end (the part that says what it is). */
const fit = (text: string, chars: number) => (text.length <= chars ? text : `…${text.slice(text.length - chars + 1)}`);

/**
 * The first divergent node's graph neighbourhood as nodes and edges (SVG): the path from the network
 * input down to the first divergent node, its other direct inputs beside it, each box and edge coloured
 * by its tensor's |Δ| (log scale, grey when not compared). Hovering or focusing a node (Tab, or ↑/↓
 * along the reading order) shows both sides' tensor statistics below the graph.
 */
export function NeighbourhoodGraph({ neighbourhood }: { neighbourhood: DrillNeighbourhood }) {
  const layout = useMemo(() => layoutNeighbourhood(neighbourhood), [neighbourhood]);
  const firstId = neighbourhood.path[neighbourhood.path.length - 1];
  const [shown, setShown] = useState<string>(firstId);
  const refs = useRef(new Map<string, SVGGElement>());
  const node = layout.nodes.find((p) => p.node.id === shown)?.node;
  const move = (id: string, step: number) => {
    const i = layout.order.indexOf(id) + step;
    const next = layout.order[Math.max(0, Math.min(layout.order.length - 1, i))];
    refs.current.get(next)?.focus();
  };
  return (
    <div className="drill-neighbourhood">
      <svg
        className="drill-svg"
        data-testid="drill-svg"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={`Graph neighbourhood of the first divergent node: ${layout.nodes.length} nodes, ${layout.edges.length} edges; Tab or the arrow keys move between nodes`}
      >
        <defs>
          <marker id="drill-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 8 4 L 0 8 z" className="drill-svg-arrow" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <path key={`${e.from}→${e.to}:${e.tensor}`} className="drill-svg-edge" data-from={e.from} data-to={e.to} d={e.d} stroke={heatColour(e.heat)} markerEnd="url(#drill-arrow)">
            <title>{`${e.tensor}: ${e.label}`}</title>
          </path>
        ))}
        {layout.nodes.map(({ node: n, x, y, heat }) => (
          <g
            key={n.id}
            ref={(el) => {
              if (el) refs.current.set(n.id, el);
              else refs.current.delete(n.id);
            }}
            className={`drill-svg-node${n.first ? ' first' : ''}${shown === n.id ? ' shown' : ''}`}
            data-testid="drill-svg-node"
            data-id={n.id}
            data-kind={n.kind}
            transform={`translate(${x} ${y})`}
            tabIndex={0}
            role="button"
            aria-label={describeNode(n)}
            aria-describedby="drill-node-details"
            onMouseEnter={() => setShown(n.id)}
            onFocus={() => setShown(n.id)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowRight') move(n.id, 1);
              else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') move(n.id, -1);
              else return;
              e.preventDefault();
            }}
          >
            <title>{describeNode(n)}</title>
            <rect width={BOX.width} height={BOX.height} rx={5} stroke={heatColour(heat)} strokeWidth={n.first ? 3 : 2} />
            <rect width={6} height={BOX.height} rx={2} fill={heatColour(heat)} />
            <text x={12} y={14} className="drill-svg-name">
              {fit(n.name, 36)}
            </text>
            <text x={12} y={28} className="drill-svg-detail">
              {fit(`${n.kind === 'input' ? 'input' : (n.opType ?? 'node')} · ${delta(n)}`, 40)}
            </text>
          </g>
        ))}
      </svg>
      <div className="drill-side">
        <div id="drill-node-details" className="drill-node-details" data-testid="drill-node-details" aria-live="polite">
          {node && <NodeDetails node={node} />}
        </div>
        <p className="muted drill-legend">
          Colour: |Δ| of the tensor on a log scale, <span style={{ color: heatColour(0) }}>green ≤ 1e−7</span> … <span style={{ color: heatColour(1) }}>red ≥ 10 or NaN</span>, grey not compared. Top: the network input; each step down is the input with the largest |Δ| of the node below{neighbourhood.truncated ? ' (the path is cut before the network input)' : ''}. Hover or focus a node for both sides&apos; statistics; ↑/↓ move between nodes.
        </p>
      </div>
    </div>
  );
}

function NodeDetails({ node }: { node: DrillGraphNode }) {
  const c = node.comparison;
  return (
    <>
      <strong>{node.name}</strong> <span className="muted">{[node.first ? 'first divergent node' : undefined, what(node)].filter(Boolean).join(' · ')}</span>
      {c ? (
        <table className="drill-stats" aria-label={`Tensor statistics of ${node.tensor}`}>
          <tbody>
            <tr>
              <th scope="row">A</th>
              <td>{tensorStats(c.a)}</td>
            </tr>
            <tr>
              <th scope="row">B</th>
              <td>{tensorStats(c.b)}</td>
            </tr>
            <tr>
              <th scope="row">|Δ|</th>
              <td>
                {delta(node)}
                {c.differing ? ` over ${c.differing} element${c.differing === 1 ? '' : 's'}` : ', within tolerance'}
              </td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p className="muted">Not compared: B has no corresponding tensor of this shape.</p>
      )}
    </>
  );
}

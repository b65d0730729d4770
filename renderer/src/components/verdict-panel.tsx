import { jobSelectors } from '../store/job/job-selectors.js';
import { useStudio } from './store-context.js';

const fmt = (value: number, digits: number, unit = '') => (Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : String(value));

const VERDICT_TEXT: Record<string, string> = {
  identical: 'Identical: A and B are bit-identical',
  'within-tolerance': 'Within tolerance: the step traces match within the tolerances',
  diverged: 'Diverged: A and B are different renderings',
};

export function VerdictPanel() {
  const verdict = useStudio(jobSelectors.verdict);
  const metrics = useStudio(jobSelectors.metrics);
  if (!metrics) return null;
  const rows: [string, string][] = [
    ['Correlation (lag 0)', fmt(metrics.correlation, 6)],
    ['Max |A−B|', metrics.maxAbsDiff.toExponential(3)],
    ['Null depth', fmt(metrics.nullDepthDb, 1, ' dB')],
    ['Loudness A / B', `${fmt(metrics.loudnessA, 2)} / ${fmt(metrics.loudnessB, 2)} LUFS`],
    ['ΔLoudness', fmt(metrics.loudnessDeltaLU, 3, ' LU')],
    ['Lag', `${metrics.lagSamples} samples`],
  ];
  return (
    <section aria-label="Verdict" className="verdict">
      <h2 data-testid="verdict" className={`verdict-${verdict ?? 'none'}`}>
        {verdict ? VERDICT_TEXT[verdict] ?? verdict : 'No verdict'}
      </h2>
      <table>
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

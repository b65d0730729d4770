import type { EndpointPageTable } from '../../electron/common/report/html/endpoint-page-table.js';
import { minusSigns } from '../src/lib/format.js';

/** The two servers of an endpoint comparison: what each answered, how fast, what it says it is; then what both were sent. */
export function EndpointsView({ table }: { table: EndpointPageTable }) {
  return (
    <section aria-label="Endpoints" data-testid="endpoints">
      <h2>Endpoints</h2>
      <div className="scroll-x">
        <table className="endpoints">
          <thead>
            <tr>
              <td />
              <th scope="col">
                <span className="swatch a" /> A
              </th>
              <th scope="col">
                <span className="swatch b" /> B
              </th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map(([label, a, b]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{a}</td>
                <td>{b}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul>
        {table.lines.map((l) => (
          <li key={l}>{minusSigns(l)}</li>
        ))}
      </ul>
    </section>
  );
}

import { minusSigns } from '../src/lib/format.js';

export function RowsTable({ rows, testId }: { rows: [string, string][]; testId?: string }) {
  return (
    <table data-testid={testId}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{minusSigns(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

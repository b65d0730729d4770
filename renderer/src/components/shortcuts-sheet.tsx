import { viewSelectors } from '../store/view/view-slice.js';
import { SHORTCUTS } from '../lib/shortcut-keys.js';
import { useStoreApi, useStudio } from './store-context.js';

export function ShortcutsSheet() {
  const store = useStoreApi();
  const open = useStudio(viewSelectors.shortcutsOpen);
  if (!open) return null;
  return (
    <div className="sheet-backdrop" onClick={() => store.getState().setShortcutsOpen(false)}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.key}>
                <th scope="row">
                  <kbd>{s.label}</kbd>
                </th>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">Switching takes keeps the position and crossfades over 5 ms, so what you hear is the difference, not a click.</p>
        <button type="button" onClick={() => store.getState().setShortcutsOpen(false)} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}

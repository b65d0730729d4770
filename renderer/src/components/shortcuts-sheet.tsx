import { viewSelectors } from '../store/view/view-selectors.js';
import { SHORTCUTS, WIDGET_KEYS, keyChip } from '../lib/shortcut-keys.js';
import { useStoreApi, useStudio } from './store-context.js';

export function ShortcutsSheet() {
  const store = useStoreApi();
  const open = useStudio(viewSelectors.shortcutsOpen);
  if (!open) return null;
  return (
    <div className="sheet-backdrop" onClick={() => store.getState().setShortcutsOpen(false)}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <div className="sheet-columns">
          <section aria-labelledby="shortcuts-global">
            <h3 id="shortcuts-global">Anywhere</h3>
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
          </section>
          {/* Display only: these keys belong to the focused widget (WIDGET_KEYS), not to the page. */}
          <section aria-labelledby="shortcuts-widgets" data-testid="widget-keys">
            <h3 id="shortcuts-widgets">In lists and charts</h3>
            <p className="muted small-text">Only while the focus is in them (Tab to reach one).</p>
            <table>
              {WIDGET_KEYS.map((w) => (
                <tbody key={w.widget}>
                  <tr>
                    <th scope="rowgroup" colSpan={2} className="widget-name">
                      {w.widget}
                    </th>
                  </tr>
                  {w.rows.map((r) => (
                    <tr key={r.keys.join()}>
                      <th scope="row">
                        {r.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 && ' '}
                            <kbd>{keyChip(k)}</kbd>
                          </span>
                        ))}
                      </th>
                      <td>{r.action}</td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </section>
        </div>
        <button type="button" onClick={() => store.getState().setShortcutsOpen(false)} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}

import { noticesSelectors } from '../store/notices/notices-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Every error as a visible message with what to do, until dismissed. */
export function Notices() {
  const store = useStoreApi();
  const notices = useStudio(noticesSelectors.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} role={n.kind === 'error' ? 'alert' : 'status'} className={`notice notice-${n.kind}`} data-testid="notice">
          <div>
            <strong>{n.message}</strong>
            {n.hint && <div className="hint">{n.hint}</div>}
          </div>
          <button type="button" className="small ghost" aria-label="Dismiss" onClick={() => store.getState().dismiss(n.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}

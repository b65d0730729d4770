import { formSelectors } from '../store/job/form-selectors.js';
import { useStudio } from './store-context.js';

/** Says so when the results on screen were made with other settings than the form now shows. */
export function StaleNote() {
  const note = useStudio(formSelectors.staleNote);
  if (!note) return null;
  return (
    <p role="status" className="stale-note" data-testid="stale-note">
      {note}
    </p>
  );
}

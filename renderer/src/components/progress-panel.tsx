import { jobSelectors } from '../store/job/job-selectors.js';
import { useStudio } from './store-context.js';

export function ProgressPanel() {
  const status = useStudio(jobSelectors.status);
  const percent = useStudio(jobSelectors.percent);
  const label = useStudio(jobSelectors.progressLabel);
  const error = useStudio(jobSelectors.error);
  return (
    <section aria-live="polite" className="progress">
      {status === 'running' && (
        <>
          <progress max={100} value={percent} aria-label="Synthesis progress" />
          <span data-testid="progress-label">{label}</span>
        </>
      )}
      {status === 'cancelled' && <p data-testid="job-status">Cancelled.</p>}
      {status === 'failed' && error && (
        <p role="alert" className="error" data-testid="job-error">
          {error.kind === 'profile' ? `Bad profile: ${error.message}` : 'Synthesis failed: the notice at the top of the results pane says why.'}
        </p>
      )}
    </section>
  );
}

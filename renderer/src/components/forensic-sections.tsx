import { minusSigns } from '../lib/format.js';
import { forensicsSelectors } from '../store/comparison/forensics-selectors.js';
import { useStudio } from './store-context.js';

/** Teacher forcing, seams and the determinism baseline of the comparison on screen, when its report has them. */
export function ForensicSections() {
  const sections = useStudio(forensicsSelectors.sections);
  if (sections.length === 0) return null;
  return (
    <div className="forensic-sections" data-testid="forensic-sections">
      {sections.map((s) => (
        <details key={s.key} open data-testid={`forensics-${s.key}`}>
          <summary>{s.title}</summary>
          <pre className="small-text" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{s.lines.map(minusSigns).join('\n')}</pre>
        </details>
      ))}
    </div>
  );
}

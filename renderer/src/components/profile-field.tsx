import { useContext, useMemo } from 'react';
import { jobSelectors } from '../store/job/job-selectors.js';
import { profileFix } from '../lib/profile-fix.js';
import { PROFILE_KEY_HELP, profileSuggestions } from '../lib/profile-suggestions.js';
import { StoreContext, useStudio } from './store-context.js';
import { savedEndpoints } from '../lib/saved-endpoints.js';
import { isEndpointSide } from '../../../electron/common/profile/endpoint-side.js';
import { formSelectors } from '../store/job/form-selectors.js';

/** A profile string, checked with the engine's parser on every keystroke; valid keys offered as completions. */
export function ProfileField({ which, label }: { which: 'profileA' | 'profileB'; label: string }) {
  const store = useContext(StoreContext)!;
  const value = useStudio(formSelectors.profile(which));
  const issue = useStudio(jobSelectors.profileIssue(which));
  const id = `field-${which}`;
  // Saved endpoints come after the engine keys, read when the value changes (a comparison that ran saved them).
  const options = useMemo(() => [...profileSuggestions(value), ...savedEndpoints()], [value]);
  const fix = useMemo(() => (issue && !isEndpointSide(value) ? profileFix(value) : undefined), [issue, value]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        list={`${id}-keys`}
        spellCheck={false}
        autoComplete="off"
        title={`A preset (eager or graph) and key=value overrides, or a speech endpoint: endpoint=http://127.0.0.1:8091,model=…\n${PROFILE_KEY_HELP.join('\n')}`}
        aria-invalid={issue !== undefined}
        aria-describedby={issue ? `${id}-issue` : undefined}
        onChange={(e) => store.getState().setForm({ [which]: e.target.value })}
      />
      <datalist id={`${id}-keys`} data-testid={`${id}-keys`}>
        {options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      {issue && (
        <span id={`${id}-issue`} className="issue">
          {issue}
        </span>
      )}
      {fix && (
        <button type="button" className="small fix" data-testid={`${id}-fix`} onClick={() => store.getState().setForm({ [which]: fix })}>
          Use “{fix}”
        </button>
      )}
    </div>
  );
}

import type { FormEvent } from 'react';
import { useContext } from 'react';
import { jobSelectors } from '../store/job/job-selectors.js';
import { StoreContext, useStudio } from './store-context.js';

function ProfileField({ which, label }: { which: 'profileA' | 'profileB'; label: string }) {
  const store = useContext(StoreContext)!;
  const value = useStudio((s) => s.form[which]);
  const issue = useStudio(jobSelectors.profileIssue(which));
  const id = `field-${which}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        spellCheck={false}
        aria-invalid={issue !== undefined}
        aria-describedby={issue ? `${id}-issue` : undefined}
        onChange={(e) => store.getState().setForm({ [which]: e.target.value })}
      />
      {issue && (
        <span id={`${id}-issue`} className="issue">
          {issue}
        </span>
      )}
    </div>
  );
}

export function CompareForm() {
  const store = useContext(StoreContext)!;
  const text = useStudio((s) => s.form.text);
  const seed = useStudio((s) => s.form.seed);
  const running = useStudio(jobSelectors.running);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void store.getState().start();
  };
  return (
    <form className="compare-form" onSubmit={submit} aria-label="Synthesize and compare">
      <div className="field wide">
        <label htmlFor="field-text">Prompt</label>
        <textarea id="field-text" rows={3} value={text} onChange={(e) => store.getState().setForm({ text: e.target.value })} />
      </div>
      <ProfileField which="profileA" label="Profile A" />
      <ProfileField which="profileB" label="Profile B" />
      <div className="field">
        <label htmlFor="field-seed">Seed</label>
        <input id="field-seed" type="number" min={0} value={seed} onChange={(e) => store.getState().setForm({ seed: Math.max(0, Math.floor(Number(e.target.value) || 0)) })} />
      </div>
      <div className="actions">
        <button type="submit" disabled={running}>
          Synthesize A/B
        </button>
        <button type="button" disabled={!running} onClick={() => void store.getState().cancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

import type { FormEvent } from 'react';
import { useContext } from 'react';
import type { Sampling } from '../../../electron/common/api/primitives.js';
import { promptLength } from '../lib/text-limit.js';
import { formSelectors } from '../store/job/form-selectors.js';
import { jobSelectors } from '../store/job/job-selectors.js';
import { ProfileField } from './profile-field.js';
import { shortcutLabel } from '../lib/shortcut-keys.js';
import { StoreContext, useStudio } from './store-context.js';

function SamplingFields() {
  const store = useContext(StoreContext)!;
  const sampling = useStudio((s) => s.form.sampling);
  const set = (patch: Partial<Sampling>) => store.getState().setForm({ sampling: { ...store.getState().form.sampling, ...patch } });
  const greedy = sampling.mode === 'greedy';
  return (
    <fieldset className="sampling">
      <legend>Sampling</legend>
      <label className="inline">
        <input type="checkbox" checked={!greedy} onChange={(e) => set({ mode: e.target.checked ? 'sample' : 'greedy' })} /> Sample (off = greedy)
      </label>
      <div className="sampling-grid">
        <label htmlFor="field-temperature">Temperature</label>
        <input id="field-temperature" type="number" step={0.05} min={0.05} max={10} disabled={greedy} value={sampling.temperature} onChange={(e) => set({ temperature: Math.max(0.05, Number(e.target.value) || 1) })} />
        <label htmlFor="field-topk">Top-k</label>
        <input id="field-topk" type="number" min={0} step={1} disabled={greedy} value={sampling.topK} onChange={(e) => set({ topK: Math.max(0, Math.floor(Number(e.target.value) || 0)) })} />
        <label htmlFor="field-topp">Top-p</label>
        <input id="field-topp" type="number" step={0.05} min={0.05} max={1} disabled={greedy} value={sampling.topP} onChange={(e) => set({ topP: Math.min(1, Math.max(0.05, Number(e.target.value) || 1)) })} />
      </div>
    </fieldset>
  );
}

export function CompareForm() {
  const store = useContext(StoreContext)!;
  const text = useStudio((s) => s.form.text);
  const seed = useStudio((s) => s.form.seed);
  const tokenizer = useStudio((s) => s.bundle?.tokenizer);
  const length = promptLength(text, tokenizer);
  const running = useStudio(jobSelectors.running);
  const blocked = useStudio(formSelectors.synthBlocked);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void store.getState().start();
  };
  return (
    <form className="compare-form" onSubmit={submit} aria-label="Synthesize and compare">
      <div className="field">
        <label htmlFor="field-text">Prompt</label>
        <textarea id="field-text" rows={3} value={text} aria-describedby={length ? 'prompt-length' : undefined} aria-invalid={(length?.over ?? false) || (length?.empty ?? false)} onChange={(e) => store.getState().setForm({ text: e.target.value })} />
        {length && (
          <span id="prompt-length" className={`small-text ${length.over || length.empty ? 'issue' : 'muted'}`} data-testid="prompt-length">
            {length.text}
          </span>
        )}
      </div>
      <ProfileField which="profileA" label="Profile A" />
      <ProfileField which="profileB" label="Profile B" />
      <div className="field">
        <label htmlFor="field-seed">Seed</label>
        <input id="field-seed" type="number" min={0} value={seed} onChange={(e) => store.getState().setForm({ seed: Math.max(0, Math.floor(Number(e.target.value) || 0)) })} />
      </div>
      <SamplingFields />
      <div className="actions">
        <button type="submit" disabled={running || blocked !== undefined} aria-describedby={blocked ? 'synth-blocked' : undefined} title={`Synthesize A/B (${shortcutLabel('mod+enter')})`} aria-keyshortcuts="Control+Enter Meta+Enter">
          Synthesize A/B
        </button>
        <button type="button" disabled={!running} onClick={() => void store.getState().cancel()} title={`Cancel the running synthesis (${shortcutLabel('escape')})`} aria-keyshortcuts="Escape">
          Cancel
        </button>
      </div>
      {blocked && (
        <p id="synth-blocked" className="muted small-text" data-testid="synth-blocked">
          {blocked}
        </p>
      )}
    </form>
  );
}

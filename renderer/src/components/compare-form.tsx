import type { FormEvent } from 'react';
import { useContext, useState } from 'react';
import type { Sampling } from '../../../electron/common/api/primitives.js';
import { FORM_BOUNDS, rangeText, readField, type FieldBounds } from '../lib/form-bounds.js';
import { promptLength } from '../lib/text-limit.js';
import { formSelectors } from '../store/job/form-selectors.js';
import { jobSelectors } from '../store/job/job-selectors.js';
import { ProfileField } from './profile-field.js';
import { shortcutLabel } from '../lib/shortcut-keys.js';
import { StoreContext, useStudio } from './store-context.js';
import { bundleSelectors } from '../store/bundle/bundle-selectors.js';

interface NumberFieldProps {
  id: string;
  bounds: FieldBounds;
  value: number;
  step: number;
  disabled?: boolean;
  onValue(value: number): void;
}

/**
 * A number the host accepts: a value in bounds is taken as typed; one outside is shown as typed with the
 * reason beside it, and set to the nearest accepted value when the field is left.
 */
function NumberField({ id, bounds, value, step, disabled, onValue }: NumberFieldProps) {
  const [draft, setDraft] = useState<string>();
  const read = draft === undefined ? undefined : readField(draft, bounds);
  const issue = read && !read.ok ? read.issue : undefined;
  return (
    <div className="field">
      <input
        id={id}
        type="number"
        step={step}
        min={bounds.min}
        max={bounds.max}
        disabled={disabled}
        value={draft ?? value}
        aria-invalid={issue !== undefined}
        aria-describedby={issue ? `${id}-issue` : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          const now = readField(e.target.value, bounds);
          if (now.ok) onValue(now.value);
        }}
        onBlur={() => {
          if (read && !read.ok && read.nearest !== undefined) onValue(read.nearest);
          setDraft(undefined);
        }}
      />
      {issue && (
        <span id={`${id}-issue`} className="issue" data-testid={`${id}-issue`}>
          {issue}
        </span>
      )}
    </div>
  );
}

/** "Temperature" and its accepted range, beside the field. */
function BoundedLabel({ htmlFor, bounds, note }: { htmlFor: string; bounds: FieldBounds; note?: string }) {
  return (
    <label htmlFor={htmlFor}>
      {bounds.label} <span className="muted small-text">{note ?? rangeText(bounds)}</span>
    </label>
  );
}

function SamplingFields() {
  const store = useContext(StoreContext)!;
  const sampling = useStudio(formSelectors.sampling);
  const set = (patch: Partial<Sampling>) => store.getState().setForm({ sampling: { ...store.getState().form.sampling, ...patch } });
  const greedy = sampling.mode === 'greedy';
  return (
    <fieldset className="sampling">
      <legend>Sampling</legend>
      <label className="inline">
        <input type="checkbox" checked={!greedy} onChange={(e) => set({ mode: e.target.checked ? 'sample' : 'greedy' })} /> Sample (off = greedy)
      </label>
      <div className="sampling-grid">
        <BoundedLabel htmlFor="field-temperature" bounds={FORM_BOUNDS.temperature} />
        <NumberField id="field-temperature" bounds={FORM_BOUNDS.temperature} step={0.05} disabled={greedy} value={sampling.temperature} onValue={(temperature) => set({ temperature })} />
        <BoundedLabel htmlFor="field-topk" bounds={FORM_BOUNDS.topK} note="0 = off" />
        <NumberField id="field-topk" bounds={FORM_BOUNDS.topK} step={1} disabled={greedy} value={sampling.topK} onValue={(topK) => set({ topK })} />
        <BoundedLabel htmlFor="field-topp" bounds={FORM_BOUNDS.topP} />
        <NumberField id="field-topp" bounds={FORM_BOUNDS.topP} step={0.05} disabled={greedy} value={sampling.topP} onValue={(topP) => set({ topP })} />
      </div>
    </fieldset>
  );
}

export function CompareForm() {
  const store = useContext(StoreContext)!;
  const text = useStudio(formSelectors.text);
  const seed = useStudio(formSelectors.seed);
  const teacherForce = useStudio(formSelectors.teacherForce);
  const tokenizer = useStudio(bundleSelectors.tokenizer);
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
        <NumberField id="field-seed" bounds={FORM_BOUNDS.seed} step={1} value={seed} onValue={(value) => store.getState().setForm({ seed: value })} />
      </div>
      <SamplingFields />
      <label className="inline" title="B computes its own logits and picks but is fed A's codes at every step: its per-step drift and would-flip steps, without the cascade after a first flip">
        <input type="checkbox" checked={teacherForce} onChange={(e) => store.getState().setForm({ teacherForce: e.target.checked })} /> Teacher-force B on A&apos;s codes
      </label>
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

import { describe, expect, it } from 'vitest';
import { faultOutcomes } from '../../../../electron/common/forensics/fault-outcomes.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';

describe('fault nondeterministic@N: parsing and outcome', () => {
  it('parses with its step, keeps its canonical text, and states the step rule for a bad step', () => {
    const p = parseProfile('graph,fault=nondeterministic@3');
    expect(p.faults).toEqual([{ kind: 'nondeterministic', step: 3 }]);
    expect(p.text).toBe('graph,fault=nondeterministic@3');
    expect(() => parseProfile('graph,fault=nondeterministic@0')).toThrow('fault "nondeterministic@0": the step must be an integer >= 1');
  });

  it('is not applied when its step never runs', () => {
    expect(faultOutcomes(parseProfile('eager,fault=nondeterministic@40'), 32, 5)).toEqual([
      { fault: 'nondeterministic@40', applied: false, reason: 'step 40 never ran: the synthesis ended after 32 steps' },
    ]);
    expect(faultOutcomes(parseProfile('eager,fault=nondeterministic@32'), 32, 5)).toEqual([{ fault: 'nondeterministic@32', applied: true }]);
  });
});

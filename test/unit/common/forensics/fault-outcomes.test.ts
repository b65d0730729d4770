import { describe, expect, it } from 'vitest';
import { faultOutcomes, noFaultApplied, unappliedFaultLines } from '../../../../electron/common/forensics/fault-outcomes.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';

// 5 frames per vocoder chunk, as the demo bundle's manifest (docs/faults.md, no-left-context row).
const CHUNK = 5;

describe('faultOutcomes', () => {
  it('a step past the end of the synthesis never ran: not applied, with the step count', () => {
    expect(faultOutcomes(parseProfile('graph,fault=stale-feedback@200'), 32, CHUNK)).toEqual([
      { fault: 'stale-feedback@200', applied: false, reason: 'step 200 never ran: the synthesis ended after 32 steps' },
    ]);
    expect(faultOutcomes(parseProfile('graph,fault=nan@talker:4'), 3, CHUNK)[0]).toMatchObject({ applied: false, reason: 'step 4 never ran: the synthesis ended after 3 steps' });
  });

  it('the last step still runs: applied', () => {
    expect(faultOutcomes(parseProfile('eager,fault=nan@vocoder:32'), 32, CHUNK)).toEqual([{ fault: 'nan@vocoder:32', applied: true }]);
    expect(faultOutcomes(parseProfile('graph,fault=stale-feedback@2'), 2, CHUNK)).toEqual([{ fault: 'stale-feedback@2', applied: true }]);
  });

  it('fp16-overflow under fp32 says it needs fp16; no-left-context needs a second vocoder chunk', () => {
    const [fp] = faultOutcomes(parseProfile('graph,fault=fp16-overflow'), 32, CHUNK);
    expect(fp.applied).toBe(false);
    expect(fp.reason).toContain('only under precision=fp16');
    expect(faultOutcomes(parseProfile('graph,precision=fp16,fault=fp16-overflow'), 32, CHUNK)[0].applied).toBe(true);
    // One chunk: the first chunk never has left context, so dropping it changes nothing.
    expect(faultOutcomes(parseProfile('graph,vocoder=stream,fault=no-left-context'), CHUNK, CHUNK)[0].applied).toBe(false);
    expect(faultOutcomes(parseProfile('graph,vocoder=stream,fault=no-left-context'), CHUNK + 1, CHUNK)[0].applied).toBe(true);
  });

  it('noFaultApplied only when faults were asked for and none acted; lines name side, profile and reason', () => {
    const none = faultOutcomes(parseProfile('graph,fault=stale-feedback@200'), 32, CHUNK);
    const some = faultOutcomes(parseProfile('graph,fault=nan@talker:4,fault=stale-feedback@200'), 32, CHUNK);
    expect(noFaultApplied([])).toBe(false);
    expect(noFaultApplied(none)).toBe(true);
    expect(noFaultApplied(some)).toBe(false);
    expect(unappliedFaultLines([{ label: 'B', profile: 'graph,fault=stale-feedback@200', faults: none }])).toEqual([
      'B (graph,fault=stale-feedback@200): fault stale-feedback@200 was not applied: step 200 never ran: the synthesis ended after 32 steps',
    ]);
  });
});

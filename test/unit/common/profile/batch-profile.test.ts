import { describe, expect, it } from 'vitest';
import { faultOutcomes } from '../../../../electron/common/forensics/fault-outcomes.js';
import { checkProfile, parseProfile } from '../../../../electron/common/profile/parse-profile.js';

const issue = (text: string) => {
  const c = checkProfile(text);
  if (c.ok) throw new Error(`expected "${text}" to be refused`);
  return c.issue;
};

describe('batch=N and fault batch-gather@N (docs/profiles-syntax.md)', () => {
  it('parses batch=N into the canonical order (after vocoder and bucket) and drops the default batch=1', () => {
    const p = parseProfile('graph,fault=batch-gather@5,precision=fp16,batch=8');
    expect(p).toMatchObject({ batch: 8, faults: [{ kind: 'batch-gather', step: 5 }] });
    expect(p.text).toBe('graph,batch=8,precision=fp16,fault=batch-gather@5');
    expect(parseProfile(p.text)).toEqual(p);
    expect(parseProfile('graph,vocoder=stream,bucket=13,batch=2').text).toBe('graph,vocoder=stream,bucket=13,batch=2');
    const one = parseProfile('graph,batch=1,fault=batch-gather@5');
    expect(one).not.toHaveProperty('batch');
    expect(one.text).toBe('graph,fault=batch-gather@5');
  });

  it('refuses a batch that is not a row count from 1 to 64, and the combinations it cannot run, naming the item', () => {
    expect(issue('graph,batch=0')).toMatchObject({ token: 'batch=0', message: 'batch "0": expected a whole number of rows from 1 to 64' });
    expect(issue('graph,batch=65').message).toBe('batch "65": expected a whole number of rows from 1 to 64');
    expect(issue('graph,batch=2x').token).toBe('batch=2x');
    expect(issue('graph,batch=4,batch=8').message).toBe('key "batch" given twice');
    expect(issue('eager,cache=recompute,batch=4')).toMatchObject({ token: 'batch=4', message: 'batch=N runs the KV-cached decoders; cache=recompute is not batched' });
    expect(issue('graph,backend=native,batch=2').message).toBe('batch=N runs on ONNX Runtime only (backend=ort); the native addon decodes one row');
    expect(issue('graph,fault=batch-gather@0').message).toBe('fault "batch-gather@0": the step must be an integer >= 1 (step 1 is the prefill)');
  });

  it('batch-gather@N acts from step N when there is another row; at batch=1 it says it changed nothing', () => {
    expect(faultOutcomes(parseProfile('graph,batch=8,fault=batch-gather@5'), 32, 5)).toEqual([{ fault: 'batch-gather@5', applied: true }]);
    expect(faultOutcomes(parseProfile('graph,batch=8,fault=batch-gather@40'), 32, 5)[0]).toMatchObject({ applied: false, reason: 'step 40 never ran: the synthesis ended after 32 steps' });
    expect(faultOutcomes(parseProfile('graph,batch=1,fault=batch-gather@5'), 32, 5)).toEqual([
      { fault: 'batch-gather@5', applied: false, reason: 'at batch=1 there is no other row: the gather picks the only row, so the output is that of no fault' },
    ]);
  });
});

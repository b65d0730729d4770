export type DrillStatus = 'running' | 'done' | 'failed' | 'cancelled';

/**
 * Where the focus goes when the drill-down changes state, so a keyboard user is never left on <body>:
 * the Drill down button is disabled while it runs, so the focus moves to Cancel; when it ends, to the
 * result's heading (done) or back to Drill down (cancelled, failed: their message is beside it).
 * `focusHere` is false when the user has moved on (focus elsewhere on the page): then nothing moves.
 */
export function drillFocusTarget(before: DrillStatus | undefined, now: DrillStatus | undefined, focusHere: boolean): 'cancel' | 'result' | 'drill' | undefined {
  if (!focusHere || before === now || now === undefined) return undefined;
  if (now === 'running') return 'cancel';
  if (before !== 'running') return undefined;
  return now === 'done' ? 'result' : 'drill';
}

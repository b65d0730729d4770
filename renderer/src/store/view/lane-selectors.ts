import type { StudioState } from '../studio-store.js';

/**
 * What the timeline's lanes are built from (components/timeline/lane-specs.ts), and nothing else: the
 * comparison and the view settings that change what a lane draws. laneSpecs takes this type, so a lane
 * cannot read a part of the state that `inputs` does not follow.
 */
export type LaneInputs = Pick<StudioState, 'comparison' | 'layout' | 'spectrogram' | 'diffAligned' | 'ampGain' | 'ampDb' | 'tolerances' | 'codesTall'>;

export const laneSelectors = {
  /** A new object on every call: select it through zustand's useShallow, which keeps the last one while its fields are equal. */
  inputs: (s: StudioState): LaneInputs => ({
    comparison: s.comparison,
    layout: s.layout,
    spectrogram: s.spectrogram,
    diffAligned: s.diffAligned,
    ampGain: s.ampGain,
    ampDb: s.ampDb,
    tolerances: s.tolerances,
    codesTall: s.codesTall,
  }),
};

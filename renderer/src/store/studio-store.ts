import { persist, type StateStorage } from 'zustand/middleware';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';
import type { PlayerLike } from '../audio/player.js';
import { createAbxSlice, type AbxSlice } from './abx/abx-slice.js';
import { createBundleSlice, type BundleSlice } from './bundle/bundle-slice.js';
import { createComparisonSlice, type ComparisonSlice } from './comparison/comparison-slice.js';
import { createDrillSlice, type DrillSlice } from './drill/drill-slice.js';
import { createHistorySlice, type HistorySlice } from './history/history-slice.js';
import { formPersistOptions } from './job/form-persistence.js';
import { createJobSlice, type JobSlice } from './job/job-slice.js';
import { createNoticesSlice, type NoticesSlice } from './notices/notices-slice.js';
import { createPlaybackSlice, type PlaybackSlice } from './playback/playback-slice.js';
import { createSweepSlice, type SweepSlice } from './sweep/sweep-slice.js';
import { createViewSlice, type ViewSlice } from './view/view-slice.js';
import { createHistoryWorkflows, type HistoryWorkflows } from './workflows/history-workflows.js';
import { createSweepWorkflows, type SweepWorkflows } from './workflows/sweep-workflows.js';
import { createWorkflowActions, type WorkflowActions } from './workflows/workflow-actions.js';

export type StudioState = BundleSlice &
  DrillSlice &
  JobSlice &
  ComparisonSlice &
  PlaybackSlice &
  ViewSlice &
  AbxSlice &
  HistorySlice &
  NoticesSlice &
  SweepSlice &
  WorkflowActions &
  HistoryWorkflows &
  SweepWorkflows;

/** A player that plays nothing, for stores without audio (unit tests of other slices). */
export const silentPlayer: PlayerLike = {
  load: () => undefined,
  unload: () => undefined,
  duration: () => 0,
  play: async () => undefined,
  pause: () => 0,
  position: () => 0,
  setGains: () => undefined,
  setLoop: () => undefined,
  onFrame: () => () => undefined,
};

/**
 * One store of slices (zustand slices pattern); the StudioApi, shell and player are injected, so tests pass doubles.
 * With `formStorage` the form is kept there across reloads (zustand's persist, form-persistence.ts).
 */
export function createStudioStore(studio: StudioApi, player: PlayerLike = silentPlayer, shell?: StudioShell, formStorage?: StateStorage): StoreApi<StudioState> {
  const slices: StateCreator<StudioState> = (...a) => ({
    ...createBundleSlice(studio)(...a),
    ...createJobSlice(studio)(...a),
    ...createDrillSlice(studio)(...a),
    ...createComparisonSlice(player)(...a),
    ...createPlaybackSlice(player)(...a),
    ...createViewSlice(...a),
    ...createAbxSlice(studio)(...a),
    ...createHistorySlice(studio, shell)(...a),
    ...createNoticesSlice(...a),
    ...createSweepSlice(...a),
    ...createWorkflowActions(studio)(...a),
    ...createHistoryWorkflows(studio)(...a),
    ...createSweepWorkflows(...a),
  });
  if (formStorage) return createStore<StudioState>()(persist(slices, formPersistOptions(formStorage)));
  return createStore<StudioState>()(slices);
}

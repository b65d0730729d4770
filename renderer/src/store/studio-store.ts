import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { createBundleSlice, type BundleSlice } from './bundle/bundle-slice.js';
import { createJobSlice, type JobSlice } from './job/job-slice.js';

export type StudioState = BundleSlice & JobSlice;

/** One store of slices (zustand slices pattern); the StudioApi is injected, so tests pass a double. */
export function createStudioStore(studio: StudioApi): StoreApi<StudioState> {
  return createStore<StudioState>()((...a) => ({
    ...createBundleSlice(studio)(...a),
    ...createJobSlice(studio)(...a),
  }));
}

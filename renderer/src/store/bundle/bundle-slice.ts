import type { StateCreator } from 'zustand/vanilla';
import type { BundleInfo } from '../../../../electron/common/api/bundle-info.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import type { StudioState } from '../studio-store.js';

export interface BundleSlice {
  bundle?: BundleInfo;
  bundleError?: string;
  loadBundle(): Promise<void>;
}

export const createBundleSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], BundleSlice> =>
  (set) => ({
    bundle: undefined,
    bundleError: undefined,
    async loadBundle() {
      try {
        set({ bundle: await studio.bundleInfo(), bundleError: undefined });
      } catch (error) {
        set({ bundleError: (error as Error).message });
      }
    },
  });

export const bundleSelectors = {
  bundle: (s: StudioState) => s.bundle,
  error: (s: StudioState) => s.bundleError,
};

import type { StateCreator } from 'zustand/vanilla';
import type { BundleInfo } from '../../../../electron/common/api/bundle-info.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { userErrorText } from '../../lib/user-error.js';
import type { StudioState } from '../studio-store.js';

export interface BundleSlice {
  bundle?: BundleInfo;
  bundleError?: string;
  loadBundle(): Promise<void>;
}

export const createBundleSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], BundleSlice> =>
  (set, get) => ({
    bundle: undefined,
    bundleError: undefined,
    async loadBundle() {
      try {
        set({ bundle: await studio.bundleInfo(), bundleError: undefined });
      } catch (error) {
        const text = userErrorText(error);
        set({ bundleError: text });
        get().notify('error', `The model bundle could not be opened: ${text}`, 'Check the bundle folder given to the studio (or rebuild the demo bundle), then restart it.', { sticky: true });
      }
    },
  });

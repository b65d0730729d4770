import type { StudioState } from '../studio-store.js';

export const noticesSelectors = {
  notices: (s: StudioState) => s.notices,
};

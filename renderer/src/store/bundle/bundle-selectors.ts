import type { StudioState } from '../studio-store.js';

export const bundleSelectors = {
  bundle: (s: StudioState) => s.bundle,
  error: (s: StudioState) => s.bundleError,
  tokenizer: (s: StudioState) => s.bundle?.tokenizer,
};

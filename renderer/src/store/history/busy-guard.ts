import { userErrorText } from '../../lib/user-error.js';
import type { StudioState } from '../studio-store.js';

/** Runs `work` as the history list's busy action (`busy` names it), and turns its failure into a notice with what to do. */
export type BusyGuard = (what: string, hint: string, work: () => Promise<void>) => Promise<void>;

export function busyGuard(set: (partial: Pick<StudioState, 'busy'>) => void, get: () => StudioState): BusyGuard {
  return async (what, hint, work) => {
    set({ busy: what });
    try {
      await work();
    } catch (error) {
      get().notify('error', `${what} failed: ${userErrorText(error)}`, hint);
    } finally {
      set({ busy: undefined });
    }
  };
}

import { createContext, useContext } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { StudioState } from '../store/studio-store.js';

export const StoreContext = createContext<StoreApi<StudioState> | null>(null);

/** Components read the store only through a selector (the smallest value they need). */
export function useStudio<T>(selector: (s: StudioState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStudio outside <StoreContext.Provider>');
  return useStore(store, selector);
}

/** The store itself, for actions and for imperative subscriptions (a canvas that follows the playhead). */
export function useStoreApi(): StoreApi<StudioState> {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStoreApi outside <StoreContext.Provider>');
  return store;
}

import { z } from 'zod';
import { createJSONStorage, type PersistOptions, type StateStorage } from 'zustand/middleware';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import type { StudioState } from '../studio-store.js';
import type { JobForm } from './job-slice.js';

/** Where the form is kept between reloads (the page's localStorage). */
export const FORM_STORAGE_KEY = 'tts-parity-studio:form';

/** What may come back from storage: each field checked, so an edited or older entry never breaks the form. */
const StoredForm = z
  .object({
    text: z.string().max(2000),
    profileA: z.string().max(500),
    profileB: z.string().max(500),
    seed: z.number().int().nonnegative(),
    sampling: Sampling,
    teacherForce: z.boolean(),
  })
  .partial();

/** Keeps the prompt and settings of the form, only those, in `storage`; fields that do not parse keep their defaults. */
export function formPersistOptions(storage: StateStorage): PersistOptions<StudioState, { form: JobForm }> {
  return {
    name: FORM_STORAGE_KEY,
    version: 1,
    storage: createJSONStorage(() => storage),
    partialize: (s) => ({ form: s.form }),
    merge: (persisted, current) => {
      const stored = (persisted as { form?: Record<string, unknown> } | undefined)?.form;
      if (!stored || typeof stored !== 'object') return current;
      const form = { ...current.form };
      for (const key of Object.keys(StoredForm.shape) as (keyof JobForm)[]) {
        const field = StoredForm.shape[key].safeParse(stored[key]);
        if (field.success && field.data !== undefined) Object.assign(form, { [key]: field.data });
      }
      return { ...current, form };
    },
  };
}

/** The page's localStorage, or undefined where the browser refuses it (then the form is simply not kept). */
export function pageStorage(): StateStorage | undefined {
  try {
    const storage = (globalThis as { localStorage?: StateStorage }).localStorage;
    storage?.getItem(FORM_STORAGE_KEY);
    return storage;
  } catch {
    return undefined;
  }
}

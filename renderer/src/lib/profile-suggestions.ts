import { checkProfile, PRESETS, PROFILE_KEYS } from '../../../electron/common/profile/parse-profile.js';

/**
 * Completions for a profile field: the presets, then the current text extended by each `key=value`
 * whose key is not set yet (faults are repeatable, N shown as 8), keeping only strings the engine's
 * parser accepts. Offered in a datalist as the user types.
 */
export function profileSuggestions(current: string): string[] {
  const text = current.trim().replace(/,+$/, '');
  // Keep the items that still parse (a typo such as "vocodr=stream" is dropped), so the
  // completions show what the user can write instead.
  const items: string[] = [];
  for (const item of text === '' ? [] : text.split(',').map((t) => t.trim())) {
    if (checkProfile([...items, item].join(',')).ok) items.push(item);
  }
  const used = new Set(items.map((t) => t.split('=')[0]));
  const base = items.length === 0 ? '' : `${items.join(',')},`;
  const out: string[] = items.length === 0 ? [...PRESETS] : [];
  const prefix = items.length === 0 ? 'eager,' : base;
  for (const spec of PROFILE_KEYS) {
    if (used.has(spec.key) && !spec.repeatable) continue;
    for (const value of spec.values) {
      const item = `${spec.key}=${value.replace('N', '8')}`;
      // Offer only what parses; a fault that needs the streaming vocoder comes with it.
      const candidate = [`${prefix}${item}`, `${prefix}vocoder=stream,${item}`].find((c) => checkProfile(c).ok);
      if (candidate) out.push(candidate);
    }
  }
  return out;
}

/** One line per key for the help text beside the field. */
export const PROFILE_KEY_HELP = PROFILE_KEYS.map((k) => `${k.key}=${k.values.join('|')}: ${k.description}`);

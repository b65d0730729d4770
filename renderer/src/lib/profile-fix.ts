import { checkProfile, PRESETS, PROFILE_KEYS } from '../../../electron/common/profile/parse-profile.js';

/** Levenshtein distance (insertions, deletions, substitutions of one character each cost 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** Every item a profile may hold; a fault's N takes the step number typed in the token (if any). */
function candidateItems(token: string): string[] {
  const step = /\d+/.exec(token)?.[0];
  const items: string[] = [...PRESETS];
  for (const spec of PROFILE_KEYS) {
    for (const value of spec.values) {
      if (!value.includes('N')) items.push(`${spec.key}=${value}`);
      else if (step !== undefined) items.push(`${spec.key}=${value.replace('N', step)}`);
    }
  }
  return items;
}

/**
 * For a profile string with a typo ("graph,vocodr=stream"), the same string with the offending item
 * replaced by the closest valid item ("graph,vocoder=stream"), if that is a small edit (at most 2, or a
 * quarter of the item's length) and the whole string then parses; otherwise undefined.
 */
export function profileFix(text: string): string | undefined {
  const check = checkProfile(text);
  if (check.ok) return undefined;
  const { token, start, end } = check.issue;
  const bare = token.trim();
  if (bare === '') return undefined;
  const limit = Math.max(2, Math.floor(bare.length / 4));
  const ranked = candidateItems(bare)
    .map((item) => ({ item, d: editDistance(bare, item) }))
    .filter((c) => c.d > 0 && c.d <= limit)
    .sort((x, y) => x.d - y.d);
  for (const { item } of ranked) {
    const fixed = text.slice(0, start) + item + text.slice(end);
    if (checkProfile(fixed).ok) return fixed;
  }
  return undefined;
}

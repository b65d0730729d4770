/**
 * The tab an arrow key moves to in a horizontal tablist (WAI-ARIA APG tabs pattern): Left/Right wrap
 * around, Home/End go to the ends; undefined for any other key.
 */
export function tabAfterKey<T>(tabs: readonly T[], current: T, key: string): T | undefined {
  const i = tabs.indexOf(current);
  if (tabs.length === 0 || i < 0) return undefined;
  if (key === 'ArrowRight') return tabs[(i + 1) % tabs.length];
  if (key === 'ArrowLeft') return tabs[(i - 1 + tabs.length) % tabs.length];
  if (key === 'Home') return tabs[0];
  if (key === 'End') return tabs[tabs.length - 1];
  return undefined;
}

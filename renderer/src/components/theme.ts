import { useSyncExternalStore } from 'react';

/** Colours from the CSS custom properties, so canvases follow the light or dark theme. */
export function cssColor(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export const colors = () => ({
  a: cssColor('--take-a', '#2f6fd6'),
  b: cssColor('--take-b', '#e0701b'),
  d: cssColor('--take-d', '#8a4fc2'),
  marker: cssColor('--marker', '#d11d3a'),
  cursor: cssColor('--fg', '#1d232a'),
  grid: cssColor('--border', '#d8dde3'),
  fg: cssColor('--fg', '#1d232a'),
  muted: cssColor('--muted', '#5b6570'),
  seam: cssColor('--seam', '#00897b'),
});

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** 'dark' or 'light' as the OS says now; canvases redraw when it changes. */
export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(
    (notify) => {
      const q = darkQuery();
      q.addEventListener('change', notify);
      return () => q.removeEventListener('change', notify);
    },
    () => (darkQuery().matches ? 'dark' : 'light'),
  );
}

/** Under this window height the timeline's lanes are drawn shorter, so lanes, transport and tabs fit at 1024×700. */
const shortQuery = () => window.matchMedia('(max-height: 820px)');

/** True in a short window (laptop at 700 px); lanes re-lay out when it changes. */
export function useShortWindow(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const q = shortQuery();
      q.addEventListener('change', notify);
      return () => q.removeEventListener('change', notify);
    },
    () => shortQuery().matches,
  );
}

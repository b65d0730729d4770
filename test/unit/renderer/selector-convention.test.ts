import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The renderer's one selector convention (docs/architecture.md, "Renderer state"): selectors are gathered in
// `<topic>Selectors` objects in `*-selectors.ts` files beside their slice, and a component reads the store only
// through one of them: `useStudio(xSelectors.y)`, a factory's `useStudio(xSelectors.y(arg))`, or
// `useStudio(useShallow(xSelectors.y))`.
const SELECTOR_ARGUMENT = /^(?:useShallow\()?\w+Selectors\.\w+(?:\([^()]*\))?\)?$/;

/** The text between the parentheses of each `useStudio(...)` call. */
function useStudioArguments(source: string): string[] {
  const found: string[] = [];
  for (let at = source.indexOf('useStudio('); at >= 0; at = source.indexOf('useStudio(', at + 1)) {
    let depth = 0;
    const start = at + 'useStudio('.length;
    for (let i = start; i < source.length; i++) {
      if (source[i] === '(') depth++;
      else if (source[i] === ')' && depth-- === 0) {
        found.push(source.slice(start, i).trim());
        break;
      }
    }
  }
  return found;
}

function conventionProblems(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => [
    ...useStudioArguments(text)
      .filter((argument) => !SELECTOR_ARGUMENT.test(argument))
      .map((argument) => `${path}: useStudio(${argument}): read the store through a selector of a *-selectors.ts file`),
    ...[...text.matchAll(/export const (\w+Selectors) = /g)]
      .filter(() => !path.endsWith('-selectors.ts'))
      .map((m) => `${path}: ${m[1]} belongs in a *-selectors.ts file beside its slice`),
  ]);
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

describe('one selector convention in the renderer', () => {
  it('every component reads the store through a named selector, and every selector object is in a *-selectors.ts file', () => {
    const files = [...sources('renderer/src')].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.flatMap(({ text }) => useStudioArguments(text)).length).toBeGreaterThan(100);
    expect(conventionProblems(files)).toEqual([]);
  });

  it('refuses an inline selector, a module-level one and a selector object in a slice file', () => {
    const planted = [
      { path: 'components/a.tsx', text: 'const n = useStudio((s) => s.comparison?.report);\nconst m = useStudio(metrics);' },
      { path: 'store/x/x-slice.ts', text: 'export const xSelectors = { a: (s: StudioState) => s.a };' },
      { path: 'components/b.tsx', text: 'useStudio(viewSelectors.layout); useStudio(formSelectors.profile(which)); useStudio(useShallow(laneSelectors.inputs));' },
    ];
    expect(conventionProblems(planted)).toEqual([
      'components/a.tsx: useStudio((s) => s.comparison?.report): read the store through a selector of a *-selectors.ts file',
      'components/a.tsx: useStudio(metrics): read the store through a selector of a *-selectors.ts file',
      'store/x/x-slice.ts: xSelectors belongs in a *-selectors.ts file beside its slice',
    ]);
  });
});

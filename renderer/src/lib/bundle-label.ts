/** The header's name and tag for a bundle: never the same word twice ("demo demo"). */
export function bundleLabel(bundle: { name: string; demo: boolean }): { name: string; tag?: string } {
  if (!bundle.demo) return { name: bundle.name };
  const name = bundle.name.trim().toLowerCase() === 'demo' ? 'Demo bundle' : bundle.name;
  return { name, tag: 'untrained' };
}

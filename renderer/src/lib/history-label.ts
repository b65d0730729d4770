interface LabelledEntry {
  id: string;
  createdAt: string;
  title: string;
  text?: string;
}

/** What a history row says: local time to the second, what was compared, and the first words of the prompt. */
export function historyLabel(entry: Omit<LabelledEntry, 'id'>, maxWords = 5, maxChars = 32): string {
  const when = new Date(entry.createdAt);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = Number.isNaN(when.getTime()) ? '' : `${two(when.getHours())}:${two(when.getMinutes())}:${two(when.getSeconds())}`;
  const words = (entry.text ?? '').trim().split(/\s+/).filter(Boolean);
  let quote = words.slice(0, maxWords).join(' ');
  if (quote.length > maxChars) quote = quote.slice(0, maxChars).trimEnd();
  const cut = quote.length < (entry.text ?? '').trim().length;
  return [time, entry.title, quote ? `“${quote}${cut ? '…' : ''}”` : ''].filter(Boolean).join(' · ');
}

/**
 * historyLabel of every entry, by id, each one told apart: entries that would read the same (the same profiles
 * and prompt in the same second) get "#2", "#3"… after the time, oldest first, where a cut-off row still shows it.
 */
export function historyLabels(entries: readonly LabelledEntry[]): Map<string, string> {
  const byLabel = new Map<string, LabelledEntry[]>();
  for (const e of entries) {
    const label = historyLabel(e);
    byLabel.set(label, [...(byLabel.get(label) ?? []), e]);
  }
  const out = new Map<string, string>();
  for (const [label, same] of byLabel) {
    const oldestFirst = [...same].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id.localeCompare(y.id));
    oldestFirst.forEach((e, i) => {
      const [time, ...rest] = label.split(' · ');
      out.set(e.id, same.length === 1 ? label : [`${time} #${i + 1}`, ...rest].join(' · '));
    });
  }
  return out;
}

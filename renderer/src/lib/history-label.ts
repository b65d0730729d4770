/** What a history row says: local time, what was compared, and the first words of the prompt. */
export function historyLabel(entry: { createdAt: string; title: string; text?: string }, maxWords = 5, maxChars = 32): string {
  const when = new Date(entry.createdAt);
  const time = Number.isNaN(when.getTime()) ? '' : `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
  const words = (entry.text ?? '').trim().split(/\s+/).filter(Boolean);
  let quote = words.slice(0, maxWords).join(' ');
  if (quote.length > maxChars) quote = quote.slice(0, maxChars).trimEnd();
  const cut = quote.length < (entry.text ?? '').trim().length;
  return [time, entry.title, quote ? `“${quote}${cut ? '…' : ''}”` : ''].filter(Boolean).join(' · ');
}

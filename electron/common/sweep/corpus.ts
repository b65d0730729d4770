import { PromptText, Seed } from '../api/primitives.js';
import { InputError } from '../errors.js';
import { BoundedLines, MAX_JSON_LINE } from '../text/bounded-lines.js';

/** One prompt of a corpus; `seed` only when its JSONL line gives one (it then replaces --seeds). */
export interface CorpusPrompt {
  id: string;
  text: string;
  seed?: number;
  line: number;
}

/**
 * Reads a corpus: JSON Lines (`{"id", "text", "seed"?}` per line) when the first non-blank line starts
 * with `{`, else one prompt per line (its id is `line-N`). Blank lines are skipped. Every refusal names
 * `file:line` and what was expected.
 */
export function parseCorpus(content: string, file: string): CorpusPrompt[] {
  const reader = new CorpusReader(file);
  reader.push(content);
  return reader.end();
}

/** parseCorpus over text that arrives in pieces (a file read a chunk at a time), each line bounded as it comes. */
export class CorpusReader {
  private readonly lines: BoundedLines;
  private jsonl: boolean | undefined;
  private readonly prompts: CorpusPrompt[] = [];
  private readonly seenAt = new Map<string, number>();
  private started = false;

  constructor(private readonly file: string) {
    this.lines = new BoundedLines(MAX_JSON_LINE, (n, limit) => new InputError(`${file}:${n}: line is longer than ${limit} characters (the limit of a corpus line)`, `${file}:${n}`));
  }

  push(piece: string): void {
    // A byte-order mark (some editors write one) is not part of the first prompt.
    const text = this.started ? piece : piece.replace(/^\uFEFF/, '');
    if (piece !== '') this.started = true;
    for (const line of this.lines.push(text)) this.take(line, this.lines.count);
  }

  end(): CorpusPrompt[] {
    this.take(this.lines.end(), this.lines.count);
    if (this.prompts.length === 0) throw new InputError(`${this.file}: the corpus has no prompts (expected one prompt per line, or JSON Lines {"id", "text", "seed"?})`, this.file);
    return this.prompts;
  }

  private take(withCr: string, line: number): void {
    const raw = withCr.replace(/\r$/, '');
    if (raw.trim() === '') return;
    this.jsonl ??= raw.trimStart().startsWith('{');
    const where = `${this.file}:${line}`;
    const prompt = this.jsonl ? jsonPrompt(raw, where, line) : { id: `line-${line}`, text: promptText(raw, where), line };
    const first = this.seenAt.get(prompt.id);
    if (first !== undefined) throw new InputError(`${where}: id "${prompt.id}" is already used on line ${first}; ids must be unique`, where);
    this.seenAt.set(prompt.id, line);
    this.prompts.push(prompt);
  }
}

function jsonPrompt(raw: string, where: string, line: number): CorpusPrompt {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InputError(`${where}: not valid JSON (the corpus is JSON Lines because its first line starts with "{")`, where);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${where}: expected an object {"id", "text", "seed"?}`, where);
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !['id', 'text', 'seed'].includes(k));
  if (unknown.length > 0) throw new InputError(`${where}: unknown field "${unknown[0]}" (known: id, text, seed)`, where);
  if (!((typeof o.id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(o.id)) || (typeof o.id === 'number' && Number.isSafeInteger(o.id) && o.id >= 0))) {
    throw new InputError(`${where}: "id" must be a name of letters, digits, ".", "_" or "-" (up to 128) or an integer >= 0, found ${JSON.stringify(o.id)}`, where);
  }
  if (typeof o.text !== 'string') throw new InputError(`${where}: "text" must be a string, found ${JSON.stringify(o.text)}`, where);
  const prompt: CorpusPrompt = { id: String(o.id), text: promptText(o.text, where), line };
  if (o.seed !== undefined) {
    const seed = Seed.safeParse(o.seed);
    if (!seed.success) throw new InputError(`${where}: "seed" must be an integer in [0, 4294967295], found ${JSON.stringify(o.seed)}`, where);
    prompt.seed = seed.data;
  }
  return prompt;
}

function promptText(text: string, where: string): string {
  const parsed = PromptText.safeParse(text);
  if (!parsed.success) throw new InputError(`${where}: ${parsed.error.issues[0].message}`, where);
  return parsed.data;
}

/** The range of Seed (api/primitives.ts), checked without a schema call per seed. */
const isSeed = (n: number): boolean => Number.isSafeInteger(n) && n >= 0 && n <= 4294967295;

/** Most seeds one --seeds may give (per prompt: a sweep of 100,000 seeds per prompt is already days of work). */
export const MAX_SEEDS = 100_000;

/**
 * `--seeds`: a comma list of integers and ranges, e.g. `0,1,5-7` → [0, 1, 5, 6, 7]; duplicates refused.
 * Linear in the text and the seeds: a range is counted against MAX_SEEDS before it is expanded, and
 * duplicates are found with a set, so no list, however long, runs for long. Messages quote at most 60
 * characters of the list.
 */
export function parseSeedList(text: string): number[] {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  const seeds: number[] = [];
  const seen = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const lo = m ? Number(m[1]) : NaN;
    const hi = m?.[2] !== undefined ? Number(m[2]) : lo;
    if (!m || !isSeed(lo) || !isSeed(hi) || hi < lo) {
      throw new InputError(`--seeds ${shown}: expected integers and ranges in [0, 4294967295], e.g. 0,1,5-7, found "${part.length > 40 ? `${part.slice(0, 40)}…` : part}"`);
    }
    if (seeds.length + (hi - lo + 1) > MAX_SEEDS) throw new InputError(`--seeds ${shown}: more than ${MAX_SEEDS} seeds (at "${part}"); run a larger sweep as several`);
    for (let s = lo; s <= hi; s++) {
      if (seen.has(s)) throw new InputError(`--seeds ${shown}: seed ${s} is given twice`);
      seen.add(s);
      seeds.push(s);
    }
  }
  return seeds;
}

import { ProfileError } from '../errors.js';
import { formatBucket } from './bucket.js';
import type { ExecutionProfile, Fault, Preset, Stage } from './types.js';

/**
 * Profile strings: a preset (`eager` | `graph`) then `key=value` overrides, comma-separated, e.g.
 * `graph,vocoder=stream,fault=stale-feedback@2`. The preset may be left out when the string starts with
 * an override (`cache=recompute` means `eager,cache=recompute`). Syntax: docs/profiles-syntax.md.
 */

export const PRESETS: readonly Preset[] = ['eager', 'graph'];

export interface ProfileKeySpec {
  key: 'vocoder' | 'bucket' | 'cache' | 'batch' | 'ep' | 'precision' | 'backend' | 'fault';
  /** Valid values; for `fault`, patterns where N is a step number; for `bucket`, N is a number of frames; for `batch`, of rows. */
  values: readonly string[];
  /** Value used when the key is absent (none for `fault`). */
  default?: string;
  repeatable: boolean;
  description: string;
}

/** Every key a profile accepts with its valid values, in the order error messages and the UI list them. */
export const PROFILE_KEYS: readonly ProfileKeySpec[] = [
  { key: 'vocoder', values: ['full', 'stream'], default: 'full', repeatable: false, description: 'whole-utterance or chunked streaming vocoder' },
  { key: 'bucket', values: ['N'], repeatable: false, description: 'vocoder=stream: pad each chunk to a multiple of N frames, or to the smallest of a list (bucket=8|16|32), as captured graphs run it' },
  { key: 'cache', values: ['kv', 'recompute'], default: 'kv', repeatable: false, description: 'incremental KV cache or full recompute every step' },
  { key: 'batch', values: ['N'], default: '1', repeatable: false, description: 'run the prompt as row 0 of a batch of N prompts of other lengths, padded and masked' },
  { key: 'ep', values: ['cpu', 'cuda'], default: 'cpu', repeatable: false, description: 'ONNX Runtime execution provider' },
  { key: 'precision', values: ['fp32', 'fp16'], default: 'fp32', repeatable: false, description: 'weights and activations' },
  { key: 'backend', values: ['ort', 'native'], default: 'ort', repeatable: false, description: 'ONNX Runtime or the native CUDA addon' },
  {
    key: 'fault',
    values: ['stale-feedback@N', 'no-left-context', 'nan@talker:N', 'nan@code-predictor:N', 'nan@vocoder:N', 'fp16-overflow', 'nondeterministic@N', 'stale-tail', 'batch-gather@N'],
    repeatable: true,
    description: 'a deliberate, documented parity bug (docs/faults.md)',
  },
];

type SettingKey = Exclude<ProfileKeySpec['key'], 'fault' | 'bucket' | 'batch'>;

/** Where in the profile string a problem is, so a text field can underline it while the user types. */
export interface ProfileIssue {
  message: string;
  /** The offending token (whole `key=value` item, or the preset). */
  token: string;
  /** Character offsets of the token in the original string: [start, end). */
  start: number;
  end: number;
}

export class ProfileSyntaxError extends ProfileError {
  readonly issue: ProfileIssue;
  constructor(profile: string, issue: ProfileIssue) {
    super(`profile "${profile}": ${issue.message}`, profile);
    this.name = 'ProfileSyntaxError';
    this.issue = issue;
  }
}

export type ProfileCheck = { ok: true; profile: ExecutionProfile } | { ok: false; issue: ProfileIssue };

/** Non-throwing form for live validation: the parsed profile, or the first problem and where it is. */
export function checkProfile(text: string): ProfileCheck {
  try {
    return { ok: true, profile: parseProfile(text) };
  } catch (error) {
    if (error instanceof ProfileSyntaxError) return { ok: false, issue: error.issue };
    throw error;
  }
}

interface Item {
  token: string;
  start: number;
  end: number;
}

function splitItems(text: string): Item[] {
  const items: Item[] = [];
  let start = 0;
  for (const raw of text.split(',')) {
    const lead = raw.length - raw.trimStart().length;
    const token = raw.trim();
    items.push({ token, start: start + lead, end: start + lead + token.length });
    start += raw.length + 1;
  }
  return items;
}

const KNOWN_KEYS = PROFILE_KEYS.map((k) => k.key).join(', ');
const STEP = /^[1-9][0-9]{0,8}$/;
const STALE_RULE = 'the step must be an integer >= 2 (step 1 is the prefill, which has no audio feedback)';
const NAN_RULE = 'the step must be an integer >= 1 (step 1 is the prefill)';
const BUCKET = /^[1-9][0-9]{0,3}$/;
/** Most rows a batch=N profile runs: the prompt and up to 63 others (run/batch-texts.ts). */
export const MAX_BATCH = 64;
/** What a number-valued key takes: said for a bad value and for a missing one alike. */
const NUMBER_RULES: Partial<Record<ProfileKeySpec['key'], string>> = {
  bucket: 'a whole number of frames from 1 to 9999, or a list of them (8|16|32)',
  batch: `a whole number of rows from 1 to ${MAX_BATCH}`,
};

export function parseProfile(text: string): ExecutionProfile {
  const fail = (item: Item, message: string): never => {
    throw new ProfileSyntaxError(text, { message, token: item.token, start: item.start, end: item.end });
  };
  const items = splitItems(text);
  if (items.length === 1 && items[0].token === '') {
    fail(items[0], 'empty (expected a preset eager|graph and/or key=value overrides, e.g. "graph,vocoder=stream")');
  }
  let preset: Preset = 'eager';
  const settings: Record<SettingKey, string> = { vocoder: 'full', cache: 'kv', ep: 'cpu', precision: 'fp32', backend: 'ort' };
  const seen = new Set<string>();
  const faults: Fault[] = [];
  const faultTexts = new Set<string>();
  let bucket: number | number[] | undefined;
  let batch = 1;

  items.forEach((item, i) => {
    if (item.token === '') fail(item, `empty item at position ${i + 1} (two commas in a row, or a trailing comma)`);
    const eq = item.token.indexOf('=');
    if (eq < 0) {
      if (i > 0) {
        const hint = PRESETS.includes(item.token as Preset) ? 'the preset must come first' : 'expected key=value';
        fail(item, `"${item.token}" is not an override (${hint}; known keys: ${KNOWN_KEYS})`);
      }
      if (!PRESETS.includes(item.token as Preset)) {
        fail(item, `unknown preset "${item.token}" (valid: ${PRESETS.join(', ')}; or start with key=value)`);
      }
      preset = item.token as Preset;
      return;
    }
    const key = item.token.slice(0, eq).trim();
    const value = item.token.slice(eq + 1).trim();
    const spec = PROFILE_KEYS.find((k) => k.key === key);
    if (!spec) fail(item, `unknown key "${key}" (known: ${KNOWN_KEYS})`);
    if (value === '') {
      const rule = NUMBER_RULES[spec!.key];
      fail(item, `missing value for ${key} (${rule ? `expected ${rule}` : `valid: ${spec!.values.join(', ')}`})`);
    }
    if (spec!.key === 'fault') {
      const fault = parseFault(value);
      if (typeof fault === 'string') fail(item, `fault "${value}": ${fault}`);
      if (!fault) fail(item, `unknown fault "${value}" (valid: ${spec!.values.join(', ')}; N is a step number from 1)`);
      const canonical = formatFault(fault as Fault);
      if (faultTexts.has(canonical)) fail(item, `fault "${canonical}" given twice`);
      faultTexts.add(canonical);
      faults.push(fault as Fault);
      return;
    }
    if (seen.has(key)) fail(item, `key "${key}" given twice`);
    seen.add(key);
    if (spec!.key === 'bucket') {
      const sizes = value.split('|');
      if (!sizes.every((k) => BUCKET.test(k))) fail(item, `bucket "${value}": expected ${NUMBER_RULES.bucket}`);
      const ks = sizes.map(Number);
      if (ks.some((k, j) => j > 0 && k <= ks[j - 1])) fail(item, `bucket "${value}": the sizes of a list must be strictly ascending (e.g. 8|16|32)`);
      bucket = ks.length === 1 ? ks[0] : ks;
      return;
    }
    if (spec!.key === 'batch') {
      if (!/^[1-9][0-9]?$/.test(value) || Number(value) > MAX_BATCH) fail(item, `batch "${value}": expected ${NUMBER_RULES.batch}`);
      batch = Number(value);
      return;
    }
    if (!spec!.values.includes(value)) fail(item, `unknown value "${value}" for ${key} (valid: ${spec!.values.join(', ')})`);
    settings[spec!.key] = value;
  });

  const profile: ExecutionProfile = {
    preset,
    cache: settings.cache as ExecutionProfile['cache'],
    vocoder: settings.vocoder as ExecutionProfile['vocoder'],
    ...(bucket === undefined ? {} : { bucket }),
    ...(batch === 1 ? {} : { batch }),
    backend: settings.backend as ExecutionProfile['backend'],
    ep: settings.ep as ExecutionProfile['ep'],
    precision: settings.precision as ExecutionProfile['precision'],
    faults: sortFaults(faults),
    text: '',
  };
  checkCombination(text, items, profile);
  profile.text = formatProfile(profile);
  return profile;
}

function checkCombination(text: string, items: Item[], p: ExecutionProfile): void {
  const refuse = (pattern: RegExp, message: string): never => {
    const item = items.find((it) => pattern.test(it.token))!;
    throw new ProfileSyntaxError(text, { message, token: item.token, start: item.start, end: item.end });
  };
  if (p.bucket !== undefined && p.vocoder !== 'stream') refuse(/^\s*bucket\s*=/, 'bucket=K needs vocoder=stream (it pads the streaming vocoder\'s chunks)');
  if (p.bucket === undefined && p.faults.some((f) => f.kind === 'stale-tail')) {
    refuse(/stale-tail/, 'fault "stale-tail" needs vocoder=stream and bucket=K (it leaks the padded chunk buffer\'s tail)');
  }
  if (p.batch !== undefined && p.cache === 'recompute') refuse(/^\s*batch\s*=/, 'batch=N runs the KV-cached decoders; cache=recompute is not batched');
  if (p.batch !== undefined && p.backend === 'native') refuse(/^\s*batch\s*=/, 'batch=N runs on ONNX Runtime only (backend=ort); the native addon decodes one row');
  if (p.vocoder !== 'stream' && p.faults.some((f) => f.kind === 'no-left-context')) {
    const item = items.find((it) => /no-left-context/.test(it.token))!;
    throw new ProfileSyntaxError(text, {
      message: 'fault "no-left-context" needs vocoder=stream (it drops the streaming vocoder\'s left context)',
      token: item.token,
      start: item.start,
      end: item.end,
    });
  }
  const stale = p.faults.find((f) => f.kind === 'stale-feedback' && f.step < 2);
  if (stale && stale.kind === 'stale-feedback') {
    const item = items.find((it) => new RegExp(`stale-feedback@0*${stale.step}$`).test(it.token))!;
    throw new ProfileSyntaxError(text, {
      message: `fault "stale-feedback@${stale.step}": ${STALE_RULE}`,
      token: item.token,
      start: item.start,
      end: item.end,
    });
  }
}

const STAGES: readonly Stage[] = ['talker', 'code-predictor', 'vocoder'];

/** The fault, null when the name is unknown, or why the step number of a known fault is wrong. */
function parseFault(value: string): Fault | null | string {
  if (value === 'no-left-context') return { kind: 'no-left-context' };
  if (value === 'fp16-overflow') return { kind: 'fp16-overflow' };
  if (value === 'stale-tail') return { kind: 'stale-tail' };
  const stale = /^stale-feedback@(.*)$/.exec(value);
  if (stale) return STEP.test(stale[1]) ? { kind: 'stale-feedback', step: Number(stale[1]) } : STALE_RULE;
  const gather = /^batch-gather@(.*)$/.exec(value);
  if (gather) return STEP.test(gather[1]) ? { kind: 'batch-gather', step: Number(gather[1]) } : NAN_RULE;
  const jitter = /^nondeterministic@(.*)$/.exec(value);
  if (jitter) return STEP.test(jitter[1]) ? { kind: 'nondeterministic', step: Number(jitter[1]) } : NAN_RULE;
  const nan = /^nan@([a-z-]+):(.*)$/.exec(value);
  if (nan && STAGES.includes(nan[1] as Stage)) {
    return STEP.test(nan[2]) ? { kind: 'nan', stage: nan[1] as Stage, step: Number(nan[2]) } : NAN_RULE;
  }
  return null;
}

export function formatFault(f: Fault): string {
  switch (f.kind) {
    case 'stale-feedback':
      return `stale-feedback@${f.step}`;
    case 'nan':
      return `nan@${f.stage}:${f.step}`;
    case 'nondeterministic':
      return `nondeterministic@${f.step}`;
    case 'batch-gather':
      return `batch-gather@${f.step}`;
    default:
      return f.kind;
  }
}

function sortFaults(faults: Fault[]): Fault[] {
  return [...faults].sort((a, b) => (formatFault(a) < formatFault(b) ? -1 : formatFault(a) > formatFault(b) ? 1 : 0));
}

/**
 * The canonical text: the preset, then the overrides that differ from their defaults in a fixed order
 * (cache, vocoder, bucket, batch, backend, ep, precision), then faults sorted by their text. Equal profiles give equal
 * strings, so `parseProfile(formatProfile(p))` is `p`.
 */
export function formatProfile(p: Omit<ExecutionProfile, 'text'>): string {
  const parts: string[] = [p.preset];
  const order: SettingKey[] = ['cache', 'vocoder', 'backend', 'ep', 'precision'];
  for (const key of order) {
    const spec = PROFILE_KEYS.find((k) => k.key === key)!;
    if (p[key] !== spec.default) parts.push(`${key}=${p[key]}`);
    if (key === 'vocoder' && p.bucket !== undefined) parts.push(`bucket=${formatBucket(p.bucket)}`);
    if (key === 'vocoder' && p.batch !== undefined && p.batch !== 1) parts.push(`batch=${p.batch}`);
  }
  for (const f of sortFaults(p.faults)) parts.push(`fault=${formatFault(f)}`);
  return parts.join(',');
}

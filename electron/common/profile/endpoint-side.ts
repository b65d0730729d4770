import { ProfileSyntaxError } from './parse-profile.js';

/**
 * A comparison side served by a running OpenAI-compatible speech server (vLLM-Omni's
 * `POST /v1/audio/speech`) instead of our engine: `endpoint=URL` then `key=value` items, e.g.
 * `endpoint=http://127.0.0.1:8091,model=tiny-qwen3-tts,voice=vivian,stream=sse`. Syntax:
 * docs/profiles-syntax.md, "Endpoint sides".
 */
export interface EndpointSpec {
  /** Where the request goes: the server's base URL with `/v1/audio/speech` appended (or as given when it ends so). */
  url: string;
  model?: string;
  voice?: string;
  language?: string;
  /** vLLM-Omni's `task_type` (Qwen3-TTS: CustomVoice, VoiceDesign, Base). */
  task?: string;
  /** `response_format` asked for: the formats parity decodes. */
  format: 'wav' | 'pcm';
  /** pcm only: the rate of the raw samples (the stream carries none). */
  rate?: number;
  /** off: one response; sse: `speech.audio.delta` events; audio: raw bytes as they are decoded. */
  stream: 'off' | 'sse' | 'audio';
  /** Seconds the whole request may take (connect, first byte, last byte). */
  timeoutS: number;
  /** Name of the environment variable holding an API key, sent as `Authorization: Bearer …` (never stored). */
  keyEnv?: string;
  /** Folder where the server's recorder writes its traces (docs/deployments.md "Traces"). */
  traces?: string;
  /** The canonical string form. */
  text: string;
}

export const SPEECH_PATH = '/v1/audio/speech';
export const DEFAULT_ENDPOINT_TIMEOUT_S = 300;

interface EndpointKeySpec {
  key: 'model' | 'voice' | 'language' | 'task' | 'format' | 'rate' | 'stream' | 'timeout' | 'key-env' | 'traces';
  values: readonly string[];
  default?: string;
  description: string;
}

/** Every key an endpoint side accepts after `endpoint=URL`, in canonical order. */
export const ENDPOINT_KEYS: readonly EndpointKeySpec[] = [
  { key: 'model', values: ['NAME'], description: 'the request\'s "model" (absent: the server\'s default)' },
  { key: 'voice', values: ['NAME'], description: 'the request\'s "voice"' },
  { key: 'language', values: ['NAME'], description: 'the request\'s "language" (vLLM-Omni: English, Chinese, Auto, …)' },
  { key: 'task', values: ['NAME'], description: 'the request\'s "task_type" (vLLM-Omni Qwen3-TTS: CustomVoice, VoiceDesign, Base)' },
  { key: 'format', values: ['wav', 'pcm'], default: 'wav', description: '"response_format": the formats parity decodes (pcm: 16-bit little-endian mono, needs rate=)' },
  { key: 'rate', values: ['HZ'], description: 'format=pcm: the sample rate of the raw samples' },
  { key: 'stream', values: ['off', 'sse', 'audio'], default: 'off', description: 'one response, or "stream": true as SSE events or raw audio chunks, read as they arrive' },
  { key: 'timeout', values: ['SECONDS'], default: String(DEFAULT_ENDPOINT_TIMEOUT_S), description: 'the most the whole request may take' },
  { key: 'key-env', values: ['VAR'], description: 'environment variable with an API key, sent as a bearer token, never written anywhere' },
  { key: 'traces', values: ['DIR'], description: 'the folder the server\'s recorder writes traces to: the comparison pairs them by request id' },
];

const KNOWN = ENDPOINT_KEYS.map((k) => k.key).join(', ');
const NAME = /^[A-Za-z0-9._:/@+-]{1,200}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** True when the side string names an endpoint (its first item is `endpoint=`), not an engine profile. */
export function isEndpointSide(text: string): boolean {
  return /^\s*endpoint\s*=/.test(text);
}

interface Item {
  token: string;
  start: number;
  end: number;
}

function items(text: string): Item[] {
  const out: Item[] = [];
  let start = 0;
  for (const raw of text.split(',')) {
    const lead = raw.length - raw.trimStart().length;
    const token = raw.trim();
    out.push({ token, start: start + lead, end: start + lead + token.length });
    start += raw.length + 1;
  }
  return out;
}

export function parseEndpoint(text: string): EndpointSpec {
  const fail = (item: Item, message: string): never => {
    throw new ProfileSyntaxError(text, { message, token: item.token, start: item.start, end: item.end });
  };
  const [first, ...rest] = items(text);
  const url = parseUrl(first.token.slice(first.token.indexOf('=') + 1).trim(), (m) => fail(first, m));
  const given = new Map<string, string>();
  rest.forEach((item, i) => {
    if (item.token === '') fail(item, `empty item at position ${i + 2} (two commas in a row, or a trailing comma)`);
    const eq = item.token.indexOf('=');
    if (eq < 0) fail(item, `"${item.token}" is not key=value (an endpoint side takes: ${KNOWN})`);
    const key = item.token.slice(0, eq).trim();
    const value = item.token.slice(eq + 1).trim();
    const spec = ENDPOINT_KEYS.find((k) => k.key === key);
    if (!spec) fail(item, `unknown key "${key}" for an endpoint (known: ${KNOWN}; engine keys such as vocoder= do not apply to a server)`);
    if (given.has(key)) fail(item, `key "${key}" given twice`);
    if (value === '') fail(item, `missing value for ${key}`);
    const check = checkValue(spec!, value);
    if (check) fail(item, check);
    given.set(key, value);
  });
  const format = (given.get('format') ?? 'wav') as EndpointSpec['format'];
  const rate = given.has('rate') ? Number(given.get('rate')) : undefined;
  const at = (key: string) => rest.find((it) => it.token.startsWith(key))!;
  if (format === 'pcm' && rate === undefined) fail(at('format'), 'format=pcm needs rate=HZ (raw samples carry no sample rate)');
  if (format !== 'pcm' && rate !== undefined) fail(at('rate'), 'rate=HZ is for format=pcm only (a WAV says its own rate)');
  const spec: EndpointSpec = {
    url,
    ...(given.has('model') ? { model: given.get('model') } : {}),
    ...(given.has('voice') ? { voice: given.get('voice') } : {}),
    ...(given.has('language') ? { language: given.get('language') } : {}),
    ...(given.has('task') ? { task: given.get('task') } : {}),
    format,
    ...(rate === undefined ? {} : { rate }),
    stream: (given.get('stream') ?? 'off') as EndpointSpec['stream'],
    timeoutS: given.has('timeout') ? Number(given.get('timeout')) : DEFAULT_ENDPOINT_TIMEOUT_S,
    ...(given.has('key-env') ? { keyEnv: given.get('key-env') } : {}),
    ...(given.has('traces') ? { traces: given.get('traces') } : {}),
    text: '',
  };
  spec.text = formatEndpoint(spec);
  return spec;
}

function checkValue(spec: EndpointKeySpec, value: string): string | undefined {
  switch (spec.key) {
    case 'format':
    case 'stream':
      return spec.values.includes(value) ? undefined : `unknown value "${value}" for ${spec.key} (valid: ${spec.values.join(', ')})`;
    case 'rate':
      return /^[1-9][0-9]{3,5}$/.test(value) && Number(value) <= 768000 ? undefined : `rate "${value}": expected a sample rate in Hz from 1000 to 768000`;
    case 'timeout':
      return /^[0-9]+(\.[0-9]+)?$/.test(value) && Number(value) > 0 && Number(value) <= 86400 ? undefined : `timeout "${value}": expected seconds, more than 0 and at most 86400`;
    case 'key-env':
      return ENV_NAME.test(value) ? undefined : `key-env "${value}": expected the name of an environment variable (letters, digits, _), not the key itself`;
    case 'traces':
      return undefined;
    default:
      return NAME.test(value) ? undefined : `${spec.key} "${value}": expected up to 200 letters, digits or . _ : / @ + -`;
  }
}

function parseUrl(value: string, fail: (message: string) => never): string {
  if (value === '') fail('missing URL after endpoint= (e.g. endpoint=http://127.0.0.1:8091)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`endpoint "${value}": not a URL (expected http://HOST:PORT, e.g. http://127.0.0.1:8091)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`endpoint "${value}": scheme "${url.protocol.slice(0, -1)}" (expected http or https)`);
  if (url.username !== '' || url.password !== '') fail(`endpoint "${value}": credentials in the URL are refused (they would be written into reports); give key-env=VAR`);
  if (url.search !== '' || url.hash !== '') fail(`endpoint "${value}": a query or fragment is not part of a speech endpoint`);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(SPEECH_PATH) ? path : path + SPEECH_PATH}`;
}

/** Canonical text: `endpoint=URL` (the speech path as sent) then the given keys in ENDPOINT_KEYS order, defaults left out. */
export function formatEndpoint(s: Omit<EndpointSpec, 'text'>): string {
  const parts = [`endpoint=${s.url}`];
  const values: Record<EndpointKeySpec['key'], string | undefined> = {
    model: s.model,
    voice: s.voice,
    language: s.language,
    task: s.task,
    format: s.format,
    rate: s.rate === undefined ? undefined : String(s.rate),
    stream: s.stream,
    timeout: String(s.timeoutS),
    'key-env': s.keyEnv,
    traces: s.traces,
  };
  for (const k of ENDPOINT_KEYS) {
    const v = values[k.key];
    if (v !== undefined && v !== k.default) parts.push(`${k.key}=${v}`);
  }
  return parts.join(',');
}

import { InputError } from '../errors.js';
import { printable } from './read-trace.js';

/**
 * A module-output sidecar (`tts-parity-modules/1`, docs/python-modules.md): a safetensors file — an
 * 8-byte little-endian header length N, N bytes of JSON {key: {dtype, shape, data_offsets}, "__metadata__":
 * {"schema": ...}}, then raw little-endian tensor bytes — whose keys are `{step}/{seq}/{module name}`:
 * seq is the output's place in the step's execution order. Values are float32 (dtype F32).
 * Pure: the bytes come from a Node reader (engine/foreign-drill/read-sidecar.ts) or the studio's upload.
 */
export const MODULES_SCHEMA = 'tts-parity-modules/1';

/** The safetensors library refuses larger headers too; nothing is allocated before this is checked. */
export const MAX_SIDECAR_HEADER_BYTES = 100_000_000;

const KEY = /^([1-9][0-9]{0,8})\/([0-9]{1,9})\/(.+)$/s;

/** One recorded module output: where its float32 values lie in the data section (after the header). */
export interface SidecarEntry {
  key: string;
  step: number;
  seq: number;
  name: string;
  shape: number[];
  /** Byte offsets relative to the start of the data section, as in the header. */
  begin: number;
  end: number;
}

/** A sidecar opened for comparison: its entries sorted by (step, seq), and a reader of one entry's values. */
export interface ModuleSidecar {
  file: string;
  entries: SidecarEntry[];
  read(entry: SidecarEntry): Float32Array;
}

function refuse(file: string, problem: string): never {
  throw new InputError(`${file}: ${problem} (a ${MODULES_SCHEMA} sidecar is a safetensors file, docs/python-modules.md)`, file);
}

/** The header length from the first 8 bytes, checked against the file size before anything is allocated. */
export function sidecarHeaderLength(first8: Uint8Array, fileBytes: number, file: string): number {
  if (fileBytes < 8 || first8.length < 8) refuse(file, `${fileBytes} bytes, too short for a header length`);
  const length = new DataView(first8.buffer, first8.byteOffset, 8).getBigUint64(0, true);
  if (length > BigInt(MAX_SIDECAR_HEADER_BYTES)) refuse(file, `header length ${length} bytes is over the limit of ${MAX_SIDECAR_HEADER_BYTES}`);
  if (length > BigInt(fileBytes - 8)) refuse(file, `header length ${length} bytes runs past the end of the file (${fileBytes} bytes)`);
  if (length < 2n) refuse(file, `header length ${length} bytes cannot hold a JSON object`);
  return Number(length);
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

function parseEntry(file: string, key: string, raw: unknown, dataBytes: number): SidecarEntry {
  const where = `tensor "${printable(key.slice(0, 200))}"`;
  const match = KEY.exec(key);
  if (!match) refuse(file, `${where}: expected a key {step}/{seq}/{module name} with step >= 1`);
  const entry = (raw ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
  if (typeof raw !== 'object' || raw === null) refuse(file, `${where}: expected {dtype, shape, data_offsets}`);
  if (entry.dtype !== 'F32') refuse(file, `${where}: dtype ${printable(JSON.stringify(entry.dtype) ?? 'missing')}, expected "F32" (the recorder writes float32)`);
  const shape = entry.shape;
  if (!Array.isArray(shape) || shape.length > 32 || !shape.every(isCount)) refuse(file, `${where}: shape must be a list of at most 32 integers >= 0`);
  const offsets = entry.data_offsets;
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) refuse(file, `${where}: data_offsets must be [begin, end], integers >= 0`);
  const [begin, end] = offsets as [number, number];
  if (begin > end || end > dataBytes) refuse(file, `${where}: data_offsets [${begin}, ${end}] lie outside the ${dataBytes} data bytes`);
  // Elements counted in floating point: a hostile shape's product overflows to a number that cannot match.
  const elements = (shape as number[]).reduce((n, d) => n * d, 1);
  if (elements * 4 !== end - begin) refuse(file, `${where}: shape [${shape.join(', ')}] needs ${elements * 4} bytes of F32, data_offsets span ${end - begin}`);
  return { key, step: Number(match[1]), seq: Number(match[2]), name: match[3], shape: shape as number[], begin, end };
}

/**
 * The entries of a sidecar's header, validated against the data section's size: F32 only, offsets
 * inside the data and not overlapping, one output per (step, seq); sorted by (step, seq).
 */
export function parseSidecarHeader(header: Uint8Array, dataBytes: number, file: string): SidecarEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(header));
  } catch (error) {
    refuse(file, `header is not UTF-8 JSON (${printable(error instanceof Error ? error.message : String(error))})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(file, 'header is not a JSON object');
  const { __metadata__: metadata, ...tensors } = value as Record<string, unknown>;
  const schema = (metadata as { schema?: unknown } | undefined)?.schema;
  if (schema !== MODULES_SCHEMA) {
    refuse(file, `__metadata__.schema is ${schema === undefined ? 'missing' : printable(JSON.stringify(schema))}, expected "${MODULES_SCHEMA}"`);
  }
  const entries = Object.entries(tensors).map(([key, raw]) => parseEntry(file, key, raw, dataBytes));
  const byOffset = [...entries].sort((x, y) => x.begin - y.begin || x.end - y.end);
  for (let i = 1; i < byOffset.length; i++) {
    const [p, q] = [byOffset[i - 1], byOffset[i]];
    if (q.begin < p.end) refuse(file, `tensors "${printable(p.key)}" and "${printable(q.key)}" overlap in the data section`);
  }
  entries.sort((x, y) => x.step - y.step || x.seq - y.seq);
  for (let i = 1; i < entries.length; i++) {
    const [p, q] = [entries[i - 1], entries[i]];
    if (p.step === q.step && p.seq === q.seq) refuse(file, `two outputs at step ${q.step}, seq ${q.seq}: "${printable(p.key)}" and "${printable(q.key)}"`);
  }
  return entries;
}

/** Little-endian float32 bytes as values (a copy; any alignment). */
export function float32FromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** A sidecar held in memory (the studio's upload): header checked as the file reader checks it. */
export function sidecarFromBytes(bytes: Uint8Array, file: string): ModuleSidecar {
  const length = sidecarHeaderLength(bytes.subarray(0, 8), bytes.byteLength, file);
  const data = bytes.subarray(8 + length);
  const entries = parseSidecarHeader(bytes.subarray(8, 8 + length), data.byteLength, file);
  return { file, entries, read: (e) => float32FromBytes(data.subarray(e.begin, e.end)) };
}

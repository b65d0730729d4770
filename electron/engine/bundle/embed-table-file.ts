import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { BundleError } from '../../common/errors.js';
import { openChecked } from '../fs/read-checked.js';
import type { BundleManifest, EmbedTableFile } from './manifest.js';

/** Where the rows of an embed.table file lie: row r is `rowBytes` bytes at `dataOffset + r × rowBytes`. */
export interface TableFile {
  path: string;
  dtype: 'float32' | 'float16';
  rows: number;
  width: number;
  dataOffset: number;
  rowBytes: number;
}

const SAFETENSORS_DTYPE = { float32: 'F32', float16: 'F16' } as const;
const HASH_CHUNK = 1 << 20;

/**
 * Checks an embed.table file against bundle.json (its size, or its safetensors header: dtype, shape
 * [rows, talker.hidden], data offsets) and feeds its bytes to the bundle hash through one reused 1 MiB
 * buffer, so the table never sits in memory. The safetensors header is an 8-byte little-endian length,
 * then that much JSON: {"name": {"dtype", "shape", "data_offsets": [begin, end]}} with offsets from
 * the end of the header.
 */
export async function openTableFile(dir: string, m: BundleManifest, t: EmbedTableFile, manifestPath: string, hash: Hash): Promise<TableFile> {
  const path = join(dir, t.file);
  if (!resolve(path).startsWith(dir + sep)) throw new BundleError(`${manifestPath}: embed.table.file "${t.file}" lies outside the bundle folder`, manifestPath);
  const fail = (problem: string): never => {
    throw new BundleError(`${path}: ${problem}`, path);
  };
  const { handle: fh, size } = await openChecked(path, {
    // Never read whole (rows are read when needed): its size is checked against bundle.json below.
    limit: { bytes: Number.MAX_SAFE_INTEGER, words: 'any size' },
    inside: { dir, words: 'the bundle folder' },
    what: 'embedding table named by bundle.json embed.table.file',
    error: (message, where) => new BundleError(message, where),
  });
  try {
    const width = m.talker.hidden;
    const rowBytes = width * (t.dtype === 'float16' ? 2 : 4);
    const bytes = t.rows * rowBytes;
    let dataOffset = 0;
    if (t.format === 'raw') {
      if (size !== bytes) fail(`${size} bytes, but embed.table says ${t.rows} rows × ${width} (talker.hidden) ${t.dtype} = ${bytes} bytes`);
    } else {
      dataOffset = await safetensorsOffset(fh, size, t, width, bytes, fail);
    }
    hash.update(t.file);
    const buf = Buffer.alloc(HASH_CHUNK);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(HASH_CHUNK, size - at), at);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      at += bytesRead;
    }
    return { path, dtype: t.dtype, rows: t.rows, width, dataOffset, rowBytes };
  } finally {
    await fh.close();
  }
}

async function safetensorsOffset(fh: FileHandle, size: number, t: EmbedTableFile, width: number, bytes: number, fail: (p: string) => never): Promise<number> {
  const head = Buffer.alloc(8);
  if (size < 8 || (await fh.read(head, 0, 8, 0)).bytesRead !== 8) fail('not a safetensors file (shorter than its 8-byte header length)');
  const headerLength = Number(head.readBigUInt64LE(0));
  if (8 + headerLength > size) fail(`not a safetensors file (header length ${headerLength} runs past the end of the file, ${size} bytes)`);
  const json = Buffer.alloc(headerLength);
  await fh.read(json, 0, headerLength, 8);
  let header: Record<string, { dtype?: unknown; shape?: unknown; data_offsets?: unknown }>;
  try {
    header = JSON.parse(json.toString('utf8')) as typeof header;
  } catch {
    return fail('not a safetensors file (its header is not JSON)');
  }
  const name = t.tensor as string;
  const entry = header[name];
  if (!entry || name === '__metadata__') {
    const have = Object.keys(header).filter((k) => k !== '__metadata__');
    return fail(`no tensor "${name}" (bundle.json embed.table.tensor); the file has ${have.map((k) => `"${k}"`).join(', ') || 'no tensors'}`);
  }
  const want = SAFETENSORS_DTYPE[t.dtype];
  if (entry.dtype !== want) fail(`tensor "${name}" is ${String(entry.dtype)}, bundle.json embed.table.dtype says ${t.dtype} (${want})`);
  const shape = entry.shape as number[];
  if (!Array.isArray(shape) || shape.length !== 2 || shape[0] !== t.rows || shape[1] !== width) {
    fail(`tensor "${name}" has shape ${JSON.stringify(shape)}, expected [${t.rows}, ${width}] (embed.table.rows, talker.hidden)`);
  }
  const [begin, end] = entry.data_offsets as [number, number];
  if (end - begin !== bytes || 8 + headerLength + end > size) fail(`tensor "${name}" data_offsets [${begin}, ${end}] do not hold ${bytes} bytes inside the file`);
  return 8 + headerLength + begin;
}

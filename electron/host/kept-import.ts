import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { FileBytes } from '../common/api/index.js';
import type { FixtureFileContent } from './fixture/write-fixture-folder.js';
import { readTextChecked } from '../engine/fs/read-checked.js';
import { readBytes } from './read-bytes.js';

/** A file on this machine and the name to show for it (the path, or a browser upload's own file name). */
export interface FileOnDisk {
  name: string;
  path: string;
}

/** A WAV of an import: its bytes, or a file on disk the worker reads itself (the host never holds it). */
export type WavSource = FileBytes | FileOnDisk;

/** A trace as imported: its file name and its text. */
export interface TraceText {
  name: string;
  text: string;
}

/**
 * The files an import was made from, as given (not the float32 copies of the takes: a WAV's format and read
 * notes are part of its report), kept with the history entry so that Swap A/B can import them again with A
 * and B exchanged after the entry is reopened.
 */
export type KeptImport =
  | { kind: 'wavs'; request: { a: WavSource; b: WavSource; maxLagMs: number } }
  | {
      kind: 'traces';
      request: { a: TraceText; b: TraceText; wavA?: WavSource; wavB?: WavSource; modulesA?: FileBytes; modulesB?: FileBytes; maxLagMs: number };
    };

const BYTE_ROLES = ['a', 'b', 'wavA', 'wavB', 'modulesA', 'modulesB'] as const;
type ByteRole = (typeof BYTE_ROLES)[number];

/** import.json: what was imported and under which names; the bytes are `import-<role>` beside it. */
const ImportManifest = z.object({
  kind: z.enum(['wavs', 'traces']),
  maxLagMs: z.number().nonnegative(),
  names: z.partialRecord(z.enum(BYTE_ROLES), z.string().min(1)),
});

/**
 * The entry files that keep an import; a file on disk is copied from there. Trace texts are not repeated:
 * they are the entry's a.jsonl and b.jsonl, which the history keeps for exports anyway.
 */
export function keptImportFiles(kept: KeptImport): Record<string, FixtureFileContent> {
  const files: Record<string, FixtureFileContent> = {};
  const names: Partial<Record<ByteRole, string>> = {};
  for (const role of BYTE_ROLES) {
    const file = (kept.request as Partial<Record<ByteRole, WavSource | TraceText>>)[role];
    if (!file) continue;
    names[role] = file.name;
    if ('bytes' in file) files[`import-${role}`] = file.bytes;
    else if ('path' in file) files[`import-${role}`] = { copyFrom: file.path };
  }
  files['import.json'] = JSON.stringify({ kind: kept.kind, maxLagMs: kept.request.maxLagMs, names }, null, 2);
  return files;
}

/** The import kept in an entry folder, or undefined (a synthesized comparison, or saved before imports were kept). */
export async function readKeptImport(dir: string): Promise<KeptImport | undefined> {
  const manifestPath = join(dir, 'import.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = ImportManifest.parse(JSON.parse(await readTextChecked(manifestPath)));
  const bytesOf = async (role: ByteRole): Promise<FileBytes | undefined> => {
    const name = manifest.names[role];
    return name === undefined ? undefined : { name, bytes: await readBytes(join(dir, `import-${role}`)) };
  };
  const [a, b] = [manifest.names.a, manifest.names.b];
  if (a === undefined || b === undefined) throw new Error(`${manifestPath}: names no A or B file`);
  // The WAVs stay on disk: a swap's worker reads them from the entry folder.
  if (manifest.kind === 'wavs') return { kind: 'wavs', request: { a: { name: a, path: join(dir, 'import-a') }, b: { name: b, path: join(dir, 'import-b') }, maxLagMs: manifest.maxLagMs } };
  const text = async (file: string) => readTextChecked(join(dir, file));
  const optional = async (role: ByteRole) => {
    const file = await bytesOf(role);
    return file ? { [role]: file } : {};
  };
  return {
    kind: 'traces',
    request: {
      a: { name: a, text: await text('a.jsonl') },
      b: { name: b, text: await text('b.jsonl') },
      ...(await optional('wavA')),
      ...(await optional('wavB')),
      ...(await optional('modulesA')),
      ...(await optional('modulesB')),
      maxLagMs: manifest.maxLagMs,
    },
  };
}

/** The same import with A and B exchanged: each side keeps its own WAV and sidecar. */
export function swapKeptImport(kept: KeptImport): KeptImport {
  if (kept.kind === 'wavs') return { kind: 'wavs', request: { ...kept.request, a: kept.request.b, b: kept.request.a } };
  const { a, b, wavA, wavB, modulesA, modulesB, maxLagMs } = kept.request;
  return {
    kind: 'traces',
    request: {
      a: b, b: a, maxLagMs,
      ...(wavA && wavB ? { wavA: wavB, wavB: wavA } : {}),
      ...(modulesB ? { modulesA: modulesB } : {}),
      ...(modulesA ? { modulesB: modulesA } : {}),
    },
  };
}

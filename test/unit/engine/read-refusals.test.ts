import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParityError } from '../../../electron/common/errors.js';
import { loadBundle } from '../../../electron/engine/bundle/load-bundle.js';
import { readFileChecked, readFixtureFileSync, readWavInput } from '../../../electron/engine/comparison/read-inputs.js';
import { readTraceFile } from '../../../electron/engine/comparison/stream-trace.js';
import { readChecked } from '../../../electron/engine/fs/read-checked.js';
import { openSidecarFile } from '../../../electron/engine/foreign-drill/read-sidecar.js';
import { openTraceSidecars } from '../../../electron/engine/foreign-drill/trace-sidecars.js';
import { readBytes } from '../../../electron/host/read-bytes.js';
import { readSidecarInput } from '../../../electron/host/read-sidecar-input.js';
import { header } from '../common/forensics/synthetic-trace.js';
import { openShardFile, shardFileName } from '../../../electron/host/sweep/shard-file.js';
import { readShardFolders } from '../../../electron/host/sweep/read-shards.js';
import { editManifest } from './bundle/small-bundle.js';
import { qwenRoot } from './bundle/qwen3-bundle.js';

// Issue 27 item 3: tokenizer.json, embed tables, shard files, a fixture's report.json and bundle.json were
// read without the regular-file check and size limit (a FIFO hung `bundle check`, `sweep merge`, `gate`; a
// link to /dev/zero read 11-16 GB), and links inside a bundle leading out of it were followed for the
// tokenizer and the table, echoing the target's bytes in the error. Every reader now goes through
// engine/fs/read-checked.ts. This walks each reader with each bad file; the unreadable file (chmod 000,
// which root ignores) is walked through the CLI as an unprivileged user in read-refusals-unreadable.test.ts.

const SECRET = 'SECRET-27-do-not-echo';
let q: Awaited<ReturnType<typeof qwenRoot>>;
let good: string;
let outsideFile: string;
let n = 0;

beforeAll(async () => {
  q = await qwenRoot('read-refusals-');
  good = await q.bundle('good', { presets: ['eager'] });
  outsideFile = join(q.root, 'outside.txt');
  writeFileSync(outsideFile, `${SECRET} {"not": "what any reader wants"}\n`);
}, 120_000);
afterAll(() => q.dispose());

type Bad = 'a FIFO' | 'a link to /dev/zero' | 'a link outside its folder' | 'a folder';
const BAD: Bad[] = ['a FIFO', 'a link to /dev/zero', 'a link outside its folder', 'a folder'];

/** Puts the bad thing at `path` (whatever was there goes). */
function plant(bad: Bad, path: string): void {
  rmSync(path, { recursive: true, force: true });
  if (bad === 'a FIFO') execFileSync('mkfifo', [path]);
  else if (bad === 'a link to /dev/zero') symlinkSync('/dev/zero', path);
  else if (bad === 'a link outside its folder') symlinkSync(outsideFile, path);
  else mkdirSync(path);
}

/** What each kind must be refused with, where the reader refuses it before reading (any folder rule). */
const REFUSED: Record<Exclude<Bad, 'a link outside its folder'>, RegExp> = {
  'a FIFO': /not a regular file \(a FIFO \(named pipe\)\)/,
  'a link to /dev/zero': /not a regular file \(a character device\)/,
  'a folder': /not a regular file \(a folder\)/,
};

/** A fresh folder of its own for one case. */
function caseDir(): string {
  const dir = join(q.root, `case-${n++}`);
  mkdirSync(dir);
  return dir;
}

async function copyOfGood(): Promise<string> {
  const dir = join(q.root, `bundle-${n++}`);
  await cp(good, dir, { recursive: true });
  return dir;
}

interface Reader {
  /** Whether the format keeps this file inside its folder (links out of it refused). */
  inFolder: boolean;
  /** That folder in the refusal's words (the bundle folder unless said). */
  folderWords?: string;
  /** Sets up the case, plants `bad` at the file this reader reads, and reads it; resolves when the read is done. */
  read(bad: Bad): Promise<unknown>;
}

const READERS: Record<string, Reader> = {
  'bundle.json (loadBundle)': {
    inFolder: true,
    read: async (bad) => {
      const dir = await copyOfGood();
      plant(bad, join(dir, 'bundle.json'));
      return loadBundle(dir);
    },
  },
  'a model file (loadBundle)': {
    inFolder: true,
    read: async (bad) => {
      const dir = await copyOfGood();
      const m = (await loadBundle(dir)).manifest;
      plant(bad, join(dir, Object.values(m.vocoder.exports)[0]!.file));
      return loadBundle(dir);
    },
  },
  'tokenizer.json (loadBundle)': {
    inFolder: true,
    read: async (bad) => {
      const dir = await copyOfGood();
      await editManifest(dir, (m) => {
        m.text = { tokenizer: 'tokenizer.json', file: 'tokenizer.json', framesPerChar: m.text.framesPerChar, maxTokens: 16 };
      });
      plant(bad, join(dir, 'tokenizer.json'));
      return loadBundle(dir);
    },
  },
  'an embed.table file (loadBundle)': {
    inFolder: true,
    read: async (bad) => {
      const dir = await copyOfGood();
      const m = (await loadBundle(dir)).manifest;
      plant(bad, join(dir, m.embed.table!.file));
      return loadBundle(dir);
    },
  },
  'a shard file (sweep merge: readShardFolders)': {
    inFolder: false,
    read: async (bad) => {
      const dir = caseDir();
      plant(bad, join(dir, 'shard-1-of-1.jsonl'));
      return readShardFolders([dir]);
    },
  },
  'a shard file resumed (sweep: openShardFile)': {
    inFolder: false,
    read: async (bad) => {
      const dir = caseDir();
      plant(bad, join(dir, shardFileName({ index: 1, count: 1 })));
      return (await openShardFile(dir, { schema: 'tts-parity-sweep/1', shard: { index: 1, count: 1 } } as never)).close();
    },
  },
  "a fixture's report.json (gate: readFixtureFileSync)": {
    inFolder: false,
    read: async (bad) => {
      const dir = caseDir();
      plant(bad, join(dir, 'report.json'));
      return readFixtureFileSync(join(dir, 'report.json'));
    },
  },
  'a WAV (readWavInput)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'a.wav');
      plant(bad, path);
      return readWavInput(path);
    },
  },
  'a trace (readTraceFile)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'a.jsonl');
      plant(bad, path);
      return readTraceFile(path);
    },
  },
  'a config, corpus or sweep.json (readFileChecked)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'config.json');
      plant(bad, path);
      return readFileChecked(path);
    },
  },
  'a module sidecar a trace header names (compare-trace: openTraceSidecars)': {
    inFolder: true,
    folderWords: "the trace's folder",
    read: async (bad) => {
      const dir = caseDir();
      plant(bad, join(dir, 'a.modules.safetensors'));
      const trace = { file: join(dir, 'a.jsonl'), header: header(2, { modules: 'a.modules.safetensors' }) };
      return openTraceSidecars(trace, trace).close();
    },
  },
  'a module sidecar given by path (compare-trace --modules-a: openSidecarFile)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'a.modules.safetensors');
      plant(bad, path);
      return openSidecarFile(path).close();
    },
  },
  'a module sidecar imported into the studio (readSidecarInput)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'a.modules.safetensors');
      plant(bad, path);
      return readSidecarInput({ path });
    },
  },
  'an import or history file (host readBytes)': {
    inFolder: false,
    read: async (bad) => {
      const path = join(caseDir(), 'entry.json');
      plant(bad, path);
      return readBytes(path);
    },
  },
};

const CASES = Object.entries(READERS).flatMap(([name, reader]) => BAD.map((bad) => [name, bad, reader] as const));

describe('every reader, every bad file: one ParityError line, exit 2, no byte of the file quoted', () => {
  it.each(CASES)('%s, %s', async (_name, bad, reader) => {
    const error = await reader.read(bad).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (bad === 'a link outside its folder' && !reader.inFolder) {
      // Allowed to be followed; whatever the reader makes of the text, it must not quote it.
      if (error === undefined) return;
    }
    expect(error).toBeInstanceOf(ParityError);
    const e = error as ParityError;
    expect(e.exitCode).toBe(2);
    expect(e.message).not.toContain('\n');
    expect(e.message).not.toContain(SECRET);
    if (bad === 'a link outside its folder') {
      if (reader.inFolder) expect(e.message).toContain(`${outsideFile}, outside ${reader.folderWords ?? 'the bundle folder'}`);
    } else if (bad === 'a link to /dev/zero' && reader.inFolder) expect(e.message).toContain(`a link to /dev/zero, outside ${reader.folderWords ?? 'the bundle folder'}`);
    else expect(e.message).toMatch(REFUSED[bad]);
  }, 30_000);
});

describe('the reader itself', () => {
  it('a file past the limit is refused naming the limit, before a byte is read', async () => {
    const path = join(caseDir(), 'big.bin');
    writeFileSync(path, Buffer.alloc(2048));
    await expect(readChecked(path, { limit: { bytes: 1024, words: 'the 1 KiB a test file may have' } })).rejects.toThrow(`${path}: 2048 bytes, larger than the 1 KiB a test file may have`);
  });

  it('a module sidecar past its limit is refused naming the limit: 64 GiB read by offsets, 128 MiB kept by the studio', async () => {
    // Sparse files: the sizes are real, no data blocks are written.
    const huge = join(caseDir(), 'huge.modules.safetensors');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 ** 3 + 1);
    expect(() => openSidecarFile(huge)).toThrow(`${huge}: the module sidecar: ${64 * 1024 ** 3 + 1} bytes, larger than the 64 GiB a module sidecar may have (record fewer steps or modules)`);
    const kept = join(caseDir(), 'kept.modules.safetensors');
    writeFileSync(kept, '');
    truncateSync(kept, 128 * 1024 ** 2 + 1);
    await expect(readSidecarInput({ path: kept, name: 'kept.modules.safetensors' })).rejects.toThrow(
      `kept.modules.safetensors: the module sidecar: ${128 * 1024 ** 2 + 1} bytes, larger than the 128.0 MB the studio keeps of a module sidecar: record fewer steps or modules, or compare with parity compare-trace --out`,
    );
  });

  it('a link loop is said in words, not as a raw ELOOP', async () => {
    const dir = caseDir();
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    await expect(readChecked(join(dir, 'a'))).rejects.toThrow(`${join(dir, 'a')}: cannot read (too many levels of symbolic links (a link loop?))`);
  });

  it('sweep --out naming a file or a device says so (it said "cannot write (already exists)")', async () => {
    const file = join(caseDir(), 'a-file');
    writeFileSync(file, '');
    const header = { schema: 'tts-parity-sweep/1', shard: { index: 1, count: 1 } } as never;
    await expect(openShardFile(file, header)).rejects.toThrow(`--out ${file}: is a file, not a folder; give the folder for the shard files (created if missing)`);
    await expect(openShardFile('/dev/null', header)).rejects.toThrow('--out /dev/null: is a character device, not a folder');
  });

  it('a file that reads as empty but is not (/proc/self/mem: size 0, EIO on read) is a one-line refusal', async () => {
    await expect(readChecked('/proc/self/mem')).rejects.toThrow('/proc/self/mem: cannot read (input/output error)');
  });
});

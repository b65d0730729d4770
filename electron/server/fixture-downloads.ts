import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ExportedFixture } from '../common/api/history.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { folderGeneration, type ExportedFolder } from './open-export.js';
import { passThrough } from '../host/pass-through.js';

/** A download id's export; `replaced` once a newer export through this server wrote the same folder. */
export interface DownloadEntry extends ExportedFolder {
  replaced: boolean;
}

// Enough for a long session; the oldest ids go first (the folders stay on disk).
const MAX_KEPT = 1000;

/**
 * The exports a browser may download: random ids handed out with each export's result, mapped to the
 * folder the host wrote. The browser names an id, never a path, so only what was exported here is served.
 * An id names one export: exporting the same folder again retires the older id (its files are gone).
 */
export class FixtureDownloads {
  private readonly entries = new Map<string, DownloadEntry & { key: string }>();

  async add(exported: { dir: string; files: string[] }): Promise<string> {
    const files = exported.files.filter((name) => name === basename(name) && name !== '.' && name !== '..');
    const key = await realpath(exported.dir).catch(() => resolve(exported.dir));
    const generation = await folderGeneration(exported.dir).catch(() => 'gone');
    for (const entry of this.entries.values()) if (entry.key === key) entry.replaced = true;
    const id = randomBytes(18).toString('base64url');
    this.entries.set(id, { dir: exported.dir, files, generation, replaced: false, key });
    if (this.entries.size > MAX_KEPT) this.entries.delete(this.entries.keys().next().value!);
    return id;
  }

  get(id: string): DownloadEntry | undefined {
    return this.entries.get(id);
  }
}

/**
 * The host's handlers as browser mode serves them: every method passes through, and `exportFixture`'s
 * result gains a `downloadId` for `GET /download/<id>`. The desktop app never gets one, so it shows no
 * download (its exports are already on the user's disk).
 */
export function withFixtureDownloads(studio: StudioHandlers, downloads: FixtureDownloads): StudioHandlers {
  const handlers = passThrough(studio);
  handlers.exportFixture = async (request: Parameters<StudioHandlers['exportFixture']>[0]): Promise<ExportedFixture> => {
    const exported = await studio.exportFixture(request);
    return { ...exported, downloadId: await downloads.add(exported) };
  };
  return handlers as unknown as StudioHandlers;
}

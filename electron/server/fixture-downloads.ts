import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { ExportedFixture } from '../common/api/history.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { passThrough } from './pass-through.js';

/** One folder this server's host exported, and the files the export wrote there (nothing else is served). */
export interface ExportedFolder {
  dir: string;
  files: string[];
}

// Enough for a long session; the oldest ids go first (the folders stay on disk).
const MAX_KEPT = 1000;

/**
 * The exports a browser may download: random ids handed out with each export's result, mapped to the
 * folder the host wrote. The browser names an id, never a path, so only what was exported here is served.
 */
export class FixtureDownloads {
  private readonly folders = new Map<string, ExportedFolder>();

  add(exported: ExportedFolder): string {
    const files = exported.files.filter((name) => name === basename(name) && name !== '.' && name !== '..');
    const id = randomBytes(18).toString('base64url');
    this.folders.set(id, { dir: exported.dir, files });
    if (this.folders.size > MAX_KEPT) this.folders.delete(this.folders.keys().next().value!);
    return id;
  }

  get(id: string): ExportedFolder | undefined {
    return this.folders.get(id);
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
    return { ...exported, downloadId: downloads.add(exported) };
  };
  return handlers as unknown as StudioHandlers;
}

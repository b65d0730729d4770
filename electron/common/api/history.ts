import { z } from 'zod';
import { Verdict } from '../report/report.js';
import { HistoryId } from './primitives.js';

export const HistoryKind = z.enum(['profiles', 'wavs', 'traces']);

/** One past comparison as listed; the report and audio come with `openHistory`. */
export const HistoryEntry = z.object({
  id: HistoryId,
  createdAt: z.string(),
  kind: HistoryKind,
  /** What was compared, e.g. `eager vs graph` or `a.wav vs b.wav`. */
  title: z.string(),
  text: z.string().optional(),
  verdict: Verdict.optional(),
  /** The entry keeps the files it was imported from, so `swapHistory` can import them with A and B exchanged. */
  swappable: z.boolean().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryList = z.object({ entries: z.array(HistoryEntry) });
export const HistoryRef = z.object({ id: HistoryId });
export const Deleted = z.object({ deleted: z.boolean() });

export const ExportFixtureRequest = z.object({
  id: HistoryId,
  /** Target folder on the host machine; created, never overwritten unless `overwrite`. */
  dir: z.string().min(1).max(4096),
  overwrite: z.boolean().default(false),
});
export type ExportFixtureRequest = z.infer<typeof ExportFixtureRequest>;

/** Names an export that browser mode can hand over as a .zip (`GET /download/<id>`); never a path. */
export const DownloadId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'expected a download id of 16-64 letters, digits, "-" or "_"');

export const ExportedFixture = z.object({
  dir: z.string(),
  files: z.array(z.string()),
  /** Set only by a transport that serves the folder as a download (browser mode); absent in the desktop app. */
  downloadId: DownloadId.optional(),
});
export type ExportedFixture = z.infer<typeof ExportedFixture>;

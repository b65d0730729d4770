import type { TableFile } from '../bundle/embed-table-file.js';
import type { BundleManifest } from '../bundle/manifest.js';
import { EmbeddingTable } from '../run/embedding-table.js';
import { smokeError } from './smoke-export.js';

/** Rows gathered at a time: bounded memory (rows × talker.hidden floats) whatever the table's size. */
const ROWS_PER_READ = 256;

/**
 * The embed.table file must hold finite values only: the engine adds its rows into the talker's input,
 * so one NaN row makes every step it feeds NaN, and an all-NaN table would pass every other smoke check
 * (those feed random embeddings). Reads the table once, a block of rows at a time; the first row with a
 * NaN or an infinity fails, naming it and how many such values the table holds.
 */
export function checkTableFinite(t: TableFile, m: BundleManifest, file: string): string {
  const table = EmbeddingTable.fromFile(t, m);
  let firstRow: number | undefined;
  let bad = 0;
  try {
    for (let start = 0; start < t.rows; start += ROWS_PER_READ) {
      const ids = Array.from({ length: Math.min(ROWS_PER_READ, t.rows - start) }, (_, i) => start + i);
      const rows = table.gather(ids);
      for (let i = 0; i < rows.length; i++) {
        if (Number.isFinite(rows[i])) continue;
        bad++;
        firstRow ??= start + Math.floor(i / t.width);
      }
    }
  } finally {
    table.close();
  }
  if (firstRow !== undefined) {
    throw smokeError(`embed.table (${file}): ${bad} NaN/Inf value${bad === 1 ? '' : 's'} of ${t.rows * t.width}, the first in row ${firstRow}; fix: export the embedding weights again (a table must be finite: its rows are added into the talker's input)`, file);
  }
  return `embed.table (${t.rows} rows × ${t.width} ${t.dtype}): every value finite`;
}

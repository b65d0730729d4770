import { createHash } from 'node:crypto';
import { CorpusReader, type CorpusPrompt } from '../../common/sweep/corpus.js';
import { readCheckedPieces } from '../../engine/fs/read-checked.js';

/** A corpus file's prompts and the sha256 of its bytes, read a piece at a time (never held whole). */
export async function readCorpusFile(path: string): Promise<{ prompts: CorpusPrompt[]; sha256: string }> {
  const reader = new CorpusReader(path);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8');
  for await (const piece of readCheckedPieces(path, { what: 'corpus' })) {
    hash.update(piece);
    reader.push(decoder.decode(piece, { stream: true }));
  }
  reader.push(decoder.decode());
  return { prompts: reader.end(), sha256: hash.digest('hex') };
}

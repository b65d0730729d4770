import { once } from 'node:events';
import { joinedPieces } from '../common/report/json-number.js';
import { FIXTURE_FILE_NAMES, type FixtureTargetWords } from '../host/fixture/write-fixture-folder.js';
import { printOut } from './print.js';

/** How a fixture refusal names the CLI's target and its replace flag. */
export const OUT_DIR: FixtureTargetWords = { target: '--out DIR', allowReplace: 'pass --force' };

/** `wrote DIR/ (a.wav, b.wav, …)`: the files of a fixture folder, in the order docs/forensics.md lists them. */
export function wroteFolderLine(dir: string, names: Iterable<string>): string {
  const rank = (n: string) => (FIXTURE_FILE_NAMES.includes(n) ? FIXTURE_FILE_NAMES.indexOf(n) : FIXTURE_FILE_NAMES.length);
  const sorted = [...names].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  return `wrote ${dir.replace(/[\\/]+$/, '')}/ (${sorted.join(', ')})\n`;
}

/** Writes text given in pieces (reportJsonChunks) to stdout about 1 MiB at a time, waiting while the pipe is full. */
export async function writeStdoutPieces(pieces: readonly string[]): Promise<void> {
  for await (const text of joinedPieces(pieces)) {
    if (!printOut(text)) await once(process.stdout, 'drain');
  }
}

/** Text made as it is written (reportJsonWithRows), then `end`, to stdout, waiting for it to drain. */
export async function writeStdoutStream(pieces: AsyncIterable<string>, end = ''): Promise<void> {
  for await (const text of joinedPieces(pieces)) {
    if (!printOut(text)) await once(process.stdout, 'drain');
  }
  printOut(end);
}

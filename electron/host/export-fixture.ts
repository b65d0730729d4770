import type { ComparisonResult } from '../common/api/index.js';
import { InputError } from '../common/errors.js';
import { stringifyReport } from '../common/report/json-number.js';
import { reportMarkdown } from '../common/report/report-markdown.js';
import { encodeWav } from '../common/wav/encode-wav.js';
import { writeFixtureFolder } from './fixture/write-fixture-folder.js';

/**
 * Writes a history entry as a fixture folder (a.wav, b.wav, diff.wav, report.json, report.md), atomically, and
 * refuses an existing folder unless `overwrite`. Audio is float32 WAV so the fixture is lossless.
 */
export async function exportFixture(entry: ComparisonResult, dir: string, overwrite: boolean): Promise<{ dir: string; files: string[] }> {
  const files: Record<string, Uint8Array | string> = { 'report.json': stringifyReport(entry.report), 'report.md': reportMarkdown(entry.report, dir) };
  const { a, b } = entry;
  if (a) files['a.wav'] = encodeWav([a.samples], a.sampleRate, 'float32');
  if (b) files['b.wav'] = encodeWav([b.samples], b.sampleRate, 'float32');
  if (a && b) {
    if (a.sampleRate !== b.sampleRate) throw new InputError(`history entry ${entry.historyId}: A is ${a.sampleRate} Hz, B is ${b.sampleRate} Hz`);
    const n = Math.min(a.samples.length, b.samples.length);
    const diff = new Float32Array(n);
    for (let i = 0; i < n; i++) diff[i] = a.samples[i] - b.samples[i];
    files['diff.wav'] = encodeWav([diff], a.sampleRate, 'float32');
  }
  await writeFixtureFolder(dir, files, { force: overwrite });
  return { dir, files: Object.keys(files).sort() };
}

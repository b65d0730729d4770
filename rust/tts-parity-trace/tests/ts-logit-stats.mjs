// The studio engine's logitStats (dist/electron/common/trace/logit-stats.js) of float32 rows, for the crate's
// bit-for-bit test. Usage: node ts-logit-stats.mjs ROWS.f32 VOCAB. Prints one JSON object per row with every
// float as the hex of its float64 bits, so that the comparison is exact (NaN and signed zeros included).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { logitStats } = await import(pathToFileURL(join(process.env.PARITY_DIST, 'common', 'trace', 'logit-stats.js')).href);
const [rowsPath, vocab] = process.argv.slice(2);
const bytes = readFileSync(rowsPath);
const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
const bits = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x, true);
  return view.getBigUint64(0, true).toString(16);
};
const n = Number(vocab);
for (let i = 0; i + n <= values.length; i += n) {
  const s = logitStats(values.subarray(i, i + n));
  const out = { mean: bits(s.mean), std: bits(s.std), min: bits(s.min), max: bits(s.max), argmax: s.argmax, top5: s.top5.map((t) => [t.id, bits(t.logit)]) };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

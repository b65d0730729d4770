// Reads a module sidecar with the studio's own file reader (dist/…/read-sidecar.js), for
// test_module_recorder_sidecar_ts.py. Usage: node read_sidecar_ts.mjs SIDECAR. Prints
// [{key, step, seq, name, shape, values}] as JSON in the reader's order, values as float32 bit patterns
// (uint32), so NaN, ±Infinity, −0 and subnormals compare exactly.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.PARITY_DIST;
const { openSidecarFile } = await import(pathToFileURL(join(dist, 'engine', 'foreign-drill', 'read-sidecar.js')).href);

const sidecar = openSidecarFile(process.argv[2]);
const out = sidecar.entries.map((e) => {
  const values = sidecar.read(e);
  return { key: e.key, step: e.step, seq: e.seq, name: e.name, shape: e.shape, bits: Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length)) };
});
sidecar.close();
process.stdout.write(JSON.stringify(out));

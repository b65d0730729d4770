/**
 * Peak memory of a WAV-pair import as the engine worker runs it, each size in a fresh process
 * (electron/cli/bench/wav-import-memory.ts; `parity bench` reports pcm16 20 and 50 MB, float32 50 MB), of
 * pcm16 files. Prints JSON. Linux only.
 *
 *   npm run build && npx tsx test/e2e/bench-wav-import.ts [MB per file…]
 *
 * BENCH_DIST runs another build's dist/ (a copy of the previous build) for a before/after.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchWavImportMemory } from '../../electron/cli/bench/wav-import-memory.js';
import { benchMachine } from './bench-machine.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = resolve(process.env.BENCH_DIST ?? join(root, 'dist'));
const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [50, 100];
const module = pathToFileURL(join(dist, 'electron', 'host', 'tasks', 'compare-wav-bytes.js')).href;
const points = benchWavImportMemory(sizes.map((fileMb) => ({ fileMb, format: 'pcm16' as const })), module);
console.log(JSON.stringify({ bench: 'WAV-pair import, the worker steps in one process (test/e2e/bench-wav-import.ts)', dist, files: '2 x pcm16 mono 24 kHz', machine: benchMachine(), points }, null, 2));

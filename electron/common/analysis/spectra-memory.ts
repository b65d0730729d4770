import { ensureBytes, newMemory, type WasmMemory } from './wasm-module.js';

/**
 * The one WebAssembly memory the spectral kernels import: log-ratio.ts's tables in its first 16 KiB, then
 * the arena where spectralDistances keeps its power spectra and each span's scratch frame, so that the
 * kernels read them in place (no copy per frame).
 */
export const LOG_TABLES_AT = 0;
const ARENA_AT = 16384;

let memory: WasmMemory | null | undefined;

/** The shared memory, or null without WebAssembly (the arena is then a JavaScript array). */
export function spectraMemory(): WasmMemory | null {
  if (memory === undefined) memory = newMemory(1);
  return memory;
}

let arena = new Float64Array(0);

/**
 * At least `doubles` doubles, reused by the next call (the storage grows to the largest size asked: a
 * fresh 35 MB array per call cost more than the first pass's FFTs, most of it the kernel mapping and
 * zeroing new pages). Views of an earlier arena are stale after this call.
 */
export function spectraArena(doubles: number): Float64Array {
  const shared = spectraMemory();
  if (!shared) {
    if (arena.length < doubles) arena = new Float64Array(doubles);
    return arena;
  }
  ensureBytes(shared, ARENA_AT + 8 * doubles);
  if (arena.buffer !== shared.buffer) arena = new Float64Array(shared.buffer, ARENA_AT);
  return arena;
}

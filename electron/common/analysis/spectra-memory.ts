import { ensureBytes, newMemory, type WasmMemory } from './wasm-module.js';

/**
 * The one WebAssembly memory the spectral kernels import: log-ratio.ts's tables (16 KiB), power-spectrum.ts's
 * window and frame (for frames up to MAX_KERNEL_FRAME samples), then the arena where spectralDistances keeps
 * its power spectra and each span's scratch frame, so that the kernels read and write them in place.
 */
export const MAX_KERNEL_FRAME = 16384;
export const LOG_TABLES_AT = 0;
export const WINDOW_AT = 16384;
export const FRAME_AT = WINDOW_AT + 8 * MAX_KERNEL_FRAME;
const ARENA_AT = FRAME_AT + 4 * MAX_KERNEL_FRAME;

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
 * zeroing new pages). Growing keeps the values; views of an earlier arena are stale after this call.
 */
export function spectraArena(doubles: number): Float64Array {
  const shared = spectraMemory();
  if (!shared) {
    if (arena.length < doubles) {
      const grown = new Float64Array(doubles);
      grown.set(arena);
      arena = grown;
    }
    return arena;
  }
  ensureBytes(shared, ARENA_AT + 8 * doubles);
  if (arena.buffer !== shared.buffer) arena = new Float64Array(shared.buffer, ARENA_AT);
  return arena;
}

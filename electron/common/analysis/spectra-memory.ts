import { compileWasm, newMemory, PAGE, type WasmMemory } from './wasm-module.js';

/**
 * The one WebAssembly memory the spectral kernels import: log-ratio.ts's tables (16 KiB), power-spectrum.ts's
 * window and frame (for frames up to MAX_KERNEL_FRAME samples), mel-simd.ts's plan and DCT rows, then the arena where
 * spectralDistances keeps its power spectra and each span's scratch frame and mel log amplitudes, so that the kernels
 * read and write them in place.
 *
 * The memory is never grown: a call that needs more gets a new, larger memory with the old one's bytes
 * copied in, and the kernels are instantiated again over it. WebAssembly.Memory.grow detaches the old
 * buffer, and from the first detach on V8 checks for detached buffers in every typed-array loop of the
 * process: a Float32Array loop of compareSignals took 6.0 ms before one grow anywhere and 13.6 ms after.
 */
export const MAX_KERNEL_FRAME = 16384;
export const LOG_TABLES_AT = 0;
export const WINDOW_AT = 16384;
export const FRAME_AT = WINDOW_AT + 8 * MAX_KERNEL_FRAME;
/** mel-simd.ts's plan: 2560 bytes of band tables and sums, then the weights (two per bin at most). */
export const MEL_PLAN_AT = FRAME_AT + 4 * MAX_KERNEL_FRAME;
export const MEL_PLAN_BYTES = 2560 + 8 * 2 * (MAX_KERNEL_FRAME / 2 + 1);
/**
 * mel-simd.ts's mel-cepstral distortion: the DCT rows (MCD_DCT_VALUES doubles: 24 rows of 40, the layout
 * wasm/mel-cepstral-distortion.wat is written for), then 80 doubles of scratch.
 */
export const MCD_PLAN_AT = MEL_PLAN_AT + MEL_PLAN_BYTES;
export const MCD_DCT_VALUES = 24 * 40;
const MCD_PLAN_BYTES = 8 * (MCD_DCT_VALUES + 80);
const ARENA_AT = MCD_PLAN_AT + MCD_PLAN_BYTES;

let memory: WasmMemory | null | undefined;

/** The current shared memory, or null without WebAssembly (the arena is then a JavaScript array). */
export function spectraMemory(): WasmMemory | null {
  if (memory === undefined) memory = newMemory(Math.ceil(ARENA_AT / PAGE));
  return memory;
}

/**
 * An instance of a kernel module (one that imports env.memory and `imports`) over the current memory,
 * made again when the memory is replaced; null where WebAssembly SIMD cannot be compiled.
 */
export function spectraKernel(
  base64: string,
  imports: Record<string, unknown> = {},
): () => Record<string, unknown> | null {
  let factory: ReturnType<typeof compileWasm> | undefined;
  let bound: { memory: WasmMemory; exports: Record<string, unknown> } | undefined;
  return () => {
    factory ??= compileWasm(base64);
    const current = factory && spectraMemory();
    if (!factory || !current) return null;
    if (bound?.memory !== current)
      bound = { memory: current, exports: factory({ env: { memory: current, ...imports } }) };
    return bound.exports;
  };
}

let arena = new Float64Array(0);

/**
 * At least `doubles` doubles, reused by the next call (the storage grows to the largest size asked: a
 * fresh 35 MB array per call cost more than the first pass's FFTs, most of it the kernel mapping and
 * zeroing new pages). Growing keeps the values; views of an earlier arena are stale after this call.
 */
export function spectraArena(doubles: number): Float64Array {
  const current = spectraMemory();
  if (!current) {
    if (arena.length < doubles) {
      const grown = new Float64Array(doubles);
      grown.set(arena);
      arena = grown;
    }
    return arena;
  }
  const bytes = ARENA_AT + 8 * doubles;
  if (current.buffer.byteLength < bytes) {
    // A quarter more than asked, so that a session's second pair seldom needs another copy.
    const larger = newMemory(Math.ceil((1.25 * bytes) / PAGE)) as WasmMemory;
    new Uint8Array(larger.buffer).set(new Uint8Array(current.buffer));
    memory = larger;
  }
  if (arena.buffer !== (memory as WasmMemory).buffer)
    arena = new Float64Array((memory as WasmMemory).buffer, ARENA_AT);
  return arena;
}

/** The session whose spectra are in the arena now (spectraArena's single arena has one user at a time). */
let arenaOwner: WeakRef<object> | undefined;

/**
 * Storage for `owner`'s spectra, at least `doubles` long with the values of `previous` (its storage from
 * an earlier call) kept: the shared arena when no other live session holds it, else an array of the
 * owner's own, where the kernels' JavaScript loops run (the same numbers, more slowly). Two sessions on one
 * thread at once (compareSignals awaiting its worker while another comparison starts) thus never write
 * into each other's spectra. A session that ends without releaseSpectraArena frees it when collected.
 */
export function claimSpectraArena(
  owner: object,
  doubles: number,
  previous: Float64Array | undefined,
): Float64Array {
  const holder = arenaOwner?.deref();
  // An owner that began on an array of its own stays on it (its values are there).
  const startedOnOwnArray = previous !== undefined && holder !== owner;
  if (holder === owner || (holder === undefined && !startedOnOwnArray)) {
    arenaOwner = new WeakRef(owner);
    return spectraArena(doubles);
  }
  if (previous && previous.length >= doubles) return previous;
  const own = new Float64Array(doubles);
  if (previous) own.set(previous);
  return own;
}

/** Frees the shared arena if `owner` holds it (its spectra are no longer read). */
export function releaseSpectraArena(owner: object): void {
  if (arenaOwner?.deref() === owner) arenaOwner = undefined;
}

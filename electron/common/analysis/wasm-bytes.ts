/**
 * A few helpers for writing small WebAssembly modules out byte by byte (the SIMD kernels of
 * k-weighting-simd.ts and mel-simd.ts; no toolchain in the build), and for compiling them where the
 * build's lib does not declare WebAssembly.
 */

export const PAGE = 65536;

export function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

export const vector = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (text: string): number[] => [...leb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

export const get = (local: number): number[] => [0x20, local];
export const set = (local: number): number[] => [0x21, local];
/** A SIMD instruction (prefix 0xfd). */
export const simd = (op: number): number[] => [0xfd, ...leb(op)];

/**
 * A module with one memory (exported as `memory`, one page to start) and one function (exported as
 * `kernel`) of the given parameter types (0x7f i32, 0x7c f64) returning nothing; `code` is its locals
 * vector followed by its instructions and final `end`.
 */
export function moduleBytes(params: number[], code: number[]): Uint8Array {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...leb(params.length), ...params, 0]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0, 1]])),
    ...section(
      7,
      vector([
        [...name('memory'), 2, 0],
        [...name('kernel'), 0, 0],
      ]),
    ),
    ...section(10, vector([[...leb(code.length), ...code]])),
  ]);
}

/**
 * The part of the WebAssembly API used here, declared locally: the build's lib (ES2023, Node types)
 * does not declare the global, and the renderer's DOM lib does, so a global declaration would clash.
 */
export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

export interface Kernel<F> {
  memory: WasmMemory;
  kernel: F;
}

/**
 * A factory of instances of the module, or null where WebAssembly SIMD is not available or a page's
 * Content-Security-Policy forbids compiling (the callers then run their JavaScript loops). Compiled
 * synchronously: Chromium allows that on its main thread only for modules under 4 KB, and the two kernels
 * are 363 and 290 bytes.
 */
export function compileKernel<F>(bytes: Uint8Array): (() => Kernel<F>) | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm?.validate(bytes)) return null;
  let compiled: object;
  try {
    compiled = new wasm.Module(bytes);
  } catch {
    return null;
  }
  return () => {
    const { exports } = new wasm.Instance(compiled);
    return { memory: exports.memory as WasmMemory, kernel: exports.kernel as F };
  };
}

/** Grows `memory` to at least `bytes`; true if it grew (views on its buffer must then be made again). */
export function ensureBytes(memory: WasmMemory, bytes: number): boolean {
  const have = memory.buffer.byteLength;
  if (bytes <= have) return false;
  memory.grow(Math.ceil((bytes - have) / PAGE));
  return true;
}

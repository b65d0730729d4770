/**
 * Loading the analysis' WebAssembly kernels (assembled from wasm/*.wat into base64 modules, see
 * scripts/wasm-modules.ts). The WebAssembly API is declared locally: the build's lib (ES2023, Node types)
 * does not declare the global, and the renderer's DOM lib does, so a global declaration would clash.
 */
export const PAGE = 65536;

export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const api = (): WasmApi | undefined => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/**
 * A factory of instances of the module (given its imports), or null where WebAssembly SIMD is not
 * available or a page's Content-Security-Policy forbids compiling (the callers then run their JavaScript
 * loops). Compiled synchronously: Chromium allows that on its main thread only for modules under 4 KB.
 */
export function compileWasm(base64: string): ((imports?: object) => Record<string, unknown>) | null {
  const wasm = api();
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  if (!wasm?.validate(bytes)) return null;
  let compiled: object;
  try {
    compiled = new wasm.Module(bytes);
  } catch {
    return null;
  }
  return (imports) => new wasm.Instance(compiled, imports).exports;
}

/** A memory of `pages` 64 KiB pages for modules that import one; null without WebAssembly. */
export function newMemory(pages: number): WasmMemory | null {
  const wasm = api();
  return wasm ? new wasm.Memory({ initial: pages }) : null;
}

import { compileWasm, newMemory, PAGE, type WasmMemory } from './wasm-module.js';

export interface KernelInstance {
  exports: Record<string, unknown>;
  memory: WasmMemory;
}

/**
 * Instances of a kernel module (one that imports env.memory) over a memory of at least the bytes asked,
 * or null where WebAssembly SIMD cannot be compiled. A call that needs more than the latest memory holds
 * gets a new memory and instance, and the old ones are dropped: the memory is never grown, as
 * WebAssembly.Memory.grow detaches the old buffer, and from the first detach on V8 checks for detached
 * buffers in every typed-array loop of the process (a plain Float32Array loop went from 8.5 to 10.4 ms
 * after one grow; in compareSignals' CPU profile, powerSpectrum took 28% longer and samplePeakDbfs 54%).
 */
export function kernelInstances(base64: string): ((bytes: number) => KernelInstance) | null {
  const factory = compileWasm(base64);
  if (!factory) return null;
  let latest: KernelInstance | undefined;
  return (bytes) => {
    if (!latest || latest.memory.buffer.byteLength < bytes) {
      const memory = newMemory(Math.max(1, Math.ceil(bytes / PAGE)));
      if (!memory) throw new Error('kernelInstances: WebAssembly compiled the module but has no Memory');
      latest = { exports: factory({ env: { memory } }), memory };
    }
    return latest;
  };
}

import { initFft } from '../../../electron/common/analysis/fft.js';

type Fetch = (url: string) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer> }>;

let loading: Promise<void> | undefined;

/**
 * Loads the shared PFFFT module in the page from the .wasm that Vite ships as an asset: fetched here and
 * handed over as `wasmBinary`, so the library never looks for its file itself (its import.meta.url
 * lookup does not hold in a bundle). Compiling it needs 'wasm-unsafe-eval' in the page's script-src.
 * Once per page; a failed load is forgotten so a later call tries again.
 */
export function loadFft(wasmUrl: string, fetchImpl: Fetch = (url) => fetch(url)): Promise<void> {
  loading ??= (async () => {
    const response = await fetchImpl(wasmUrl);
    if (!response.ok) throw new Error(`The FFT module (${wasmUrl}) could not be loaded: HTTP ${response.status}`);
    const wasmBinary = await response.arrayBuffer();
    try {
      await initFft({ wasmBinary });
    } catch (error) {
      throw new Error(`The FFT module (${wasmUrl}) could not be compiled: ${(error as Error).message}`);
    }
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

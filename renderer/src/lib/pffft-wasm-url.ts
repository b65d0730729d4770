// Vite copies the .wasm into the build's assets and gives its URL; the package's exports map lists only
// its JS entry points, hence the path through node_modules.
import wasmUrl from '../../../node_modules/@echogarden/pffft-wasm/dist/simd/pffft.wasm?url';

export const PFFFT_WASM_URL: string = wasmUrl;

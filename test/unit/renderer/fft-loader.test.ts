import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadFft } from '../../../renderer/src/lib/fft-loader.js';
import { spectrogramOfRange } from '../../../electron/common/draw/spectrogram.js';

// The page's path: fetch the .wasm Vite ships, hand it over as wasmBinary. The order of these tests
// matters: the failures must come before the module is loaded once (it stays loaded for the process).
const wasmFile = join(dirname(createRequire(import.meta.url).resolve('@echogarden/pffft-wasm/simd')), 'pffft.wasm');
const bytes = readFileSync(wasmFile);
const served = (status: number, body: Uint8Array) => async () => ({
  ok: status === 200,
  status,
  arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
});

describe('loadFft (PFFFT in the page from a fetched .wasm)', () => {
  it('names the URL and the HTTP status when the asset is missing', async () => {
    await expect(loadFft('./assets/pffft-x.wasm', served(404, new Uint8Array()))).rejects.toThrow('The FFT module (./assets/pffft-x.wasm) could not be loaded: HTTP 404');
  });

  it('says the module could not be compiled when the bytes are not WebAssembly', async () => {
    // Emscripten also reports the failure on console.error; captured and checked rather than printed.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(loadFft('./assets/pffft-x.wasm', served(200, new TextEncoder().encode('<!doctype html>')))).rejects.toThrow(/The FFT module \(\.\/assets\/pffft-x\.wasm\) could not be compiled/);
      expect(printed.mock.calls.flat().join('\n')).toMatch(/expected magic word 00 61 73 6d/);
    } finally {
      printed.mockRestore();
    }
  });

  it('after a failure, a later call loads the real bytes and the spectrogram runs on them', async () => {
    let fetched = 0;
    const fetchOnce = async () => {
      fetched++;
      return served(200, bytes)();
    };
    await loadFft('./assets/pffft.wasm', fetchOnce);
    await loadFft('./assets/pffft.wasm', fetchOnce);
    expect(fetched).toBe(1); // once per page
    // 1000 Hz at 8 kHz, 256 points: bin 32 at 0 dB (code 255, ±1 for float32) — see spectrogram.test.ts.
    const x = Float32Array.from({ length: 8000 }, (_, i) => Math.sin((2 * Math.PI * 1000 * i) / 8000));
    const spec = spectrogramOfRange(x, 8000, 0, x.length, 4, 256);
    expect(spec.data[spec.bins + 32]).toBeGreaterThanOrEqual(254);
  });
});

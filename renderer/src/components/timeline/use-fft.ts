import { useEffect, useState } from 'react';
import { loadFft } from '../../lib/fft-loader.js';
import { PFFFT_WASM_URL } from '../../lib/pffft-wasm-url.js';

/** Loads the FFT (PFFFT, WASM) when spectrograms are first asked for. */
export function useFft(wanted: boolean): { ready: boolean; error?: string } {
  const [fft, setFft] = useState<{ ready: boolean; error?: string }>({ ready: false });
  useEffect(() => {
    if (!wanted || fft.ready) return;
    let live = true;
    loadFft(PFFFT_WASM_URL).then(
      () => live && setFft({ ready: true }),
      (error: unknown) => live && setFft({ ready: false, error: (error as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [wanted, fft.ready]);
  return fft;
}

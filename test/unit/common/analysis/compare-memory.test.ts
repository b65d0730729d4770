import { beforeAll, describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../electron/common/analysis/compare.js';
import { initFft, realFft } from '../../../../electron/common/analysis/fft.js';
import { spectraMemory } from '../../../../electron/common/analysis/spectra-memory.js';
import { delayedCopy, speechLike, whiteNoise } from '../../../helpers/signals.js';

beforeAll(() => initFft());

/**
 * Memory bound of the pair analysis, counted rather than timed. What compareSignals adds is (1) the
 * typed arrays of 64 KB or more it allocates (the global constructors are wrapped for the call; their
 * sum bounds what they hold at the peak) and (2) the growth of PFFFT's WASM memory and of the spectral
 * kernels' (spectra-memory.ts: the kept spectra live there), which only grow.
 * With the spectra cache set to 1 MB, both together must stay under 1 MB + 3 MB of fixed buffers (FFT
 * blocks, per-frame maxima) at 5 s and at 40 s: nothing may grow with the take. Before issue 29 the
 * cross-correlation transformed the whole take (a 40 s pair: 2 spectra of ~1M floats in JS and the
 * plan's buffers in WASM, ~19 MB), which this bound fails.
 */
const LARGE = 64 * 1024;
const CACHE = 1024 * 1024;
const FIXED = 3 * 1024 * 1024;
const originals = { Float32Array, Float64Array, Int32Array };

const wasmBytes = () => realFft(32).buffer().buffer.byteLength + (spectraMemory()?.buffer.byteLength ?? 0);

async function addedBytes(seconds: number): Promise<number> {
  const a = speechLike(seconds, 24000, 1);
  const b = delayedCopy(a, 37, 0.8, whiteNoise(a.length, 1e-4, 2));
  let bytes = 0;
  const counting = <T extends typeof Float32Array | typeof Float64Array | typeof Int32Array>(Base: T): T =>
    new Proxy(Base, {
      construct(target, args: unknown[], newTarget) {
        const made = Reflect.construct(target, args, newTarget) as InstanceType<T>;
        if (typeof args[0] === 'number' && made.byteLength >= LARGE) bytes += made.byteLength;
        return made;
      },
    });
  const wasmBefore = wasmBytes();
  Object.assign(globalThis, {
    Float32Array: counting(Float32Array),
    Float64Array: counting(Float64Array),
    Int32Array: counting(Int32Array),
  });
  try {
    await compareSignals(a, b, 24000, { spectraCacheBytes: CACHE });
  } finally {
    Object.assign(globalThis, originals);
  }
  return bytes + (wasmBytes() - wasmBefore);
}

describe('compareSignals: memory does not grow with the take', () => {
  it('adds under the 1 MB spectra cache + 3 MB at 5 s and at 40 s', async () => {
    expect(await addedBytes(5)).toBeLessThan(CACHE + FIXED);
    expect(await addedBytes(40)).toBeLessThan(CACHE + FIXED);
  }, 60_000);
});

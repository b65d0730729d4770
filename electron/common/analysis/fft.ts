import createPffft, { type PffftModule } from '@echogarden/pffft-wasm/simd';

/**
 * Real FFT over PFFFT (WASM, SIMD). Float32 inside, as PFFFT is; the spectra are "ordered":
 * interleaved complex bins 0..n/2-1, except that slot 1 holds the real Nyquist bin (PFFFT packs
 * DC and Nyquist into the first complex entry). Transforms are unscaled: inverse(forward(x)) = n·x.
 */

const PFFFT_REAL = 0;
const FORWARD = 0;
const BACKWARD = 1;

export interface FftInitOptions {
  /** The pffft.wasm bytes, for renderers where the module cannot find its .wasm next to its .js. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

let loading: Promise<PffftModule> | undefined;
let loaded: PffftModule | undefined;

/** Loads the WASM once; later calls return the same module. In Node it finds its .wasm itself. */
export async function initFft(options: FftInitOptions = {}): Promise<void> {
  loading ??= createPffft(options.wasmBinary ? { wasmBinary: options.wasmBinary } : {});
  try {
    loaded = await loading;
  } catch (error) {
    loading = undefined; // let a later call retry, e.g. with a wasmBinary
    throw error;
  }
}

const plans = new Map<number, RealFft>();
/** Frame-sized plans stay cached; of the signal-sized ones (tens of MB each) only the latest is kept. */
const LARGE_PLAN = 1 << 16;

/** The cached plan for size n; `initFft` must have resolved first. n must be a `goodFftSize`. */
export function realFft(n: number): RealFft {
  if (!loaded) throw new Error('realFft: call and await initFft() first');
  let plan = plans.get(n);
  if (!plan) {
    if (n > LARGE_PLAN) {
      for (const [size, old] of plans) {
        if (size > LARGE_PLAN) {
          old.dispose();
          plans.delete(size);
        }
      }
    }
    plan = new RealFft(loaded, n);
    plans.set(n, plan);
  }
  return plan;
}

/** Smallest n' ≥ n that PFFFT accepts for real transforms: a multiple of 32 of the form 2^a·3^b·5^c. */
export function goodFftSize(n: number): number {
  let best = 32;
  while (best < n) best *= 2;
  for (let p3 = 1; p3 < best; p3 *= 3) {
    for (let p35 = p3; p35 < best; p35 *= 5) {
      let m = 32 * p35;
      while (m < n) m *= 2;
      if (m < best) best = m;
    }
  }
  return best;
}

export class RealFft {
  readonly n: number;
  private readonly module: PffftModule;
  private readonly setup: number;
  private readonly dataPtr: number;
  private readonly workPtr: number;
  private view: Float32Array | undefined;

  constructor(module: PffftModule, n: number) {
    if (!isGoodSize(n)) throw new Error(`RealFft: size ${n} is not a PFFFT size`);
    this.module = module;
    this.n = n;
    this.setup = module._pffft_new_setup(n, PFFFT_REAL);
    if (this.setup === 0) throw new Error(`RealFft: PFFFT refused size ${n}`);
    this.dataPtr = module._pffft_aligned_malloc(n * 4);
    this.workPtr = module._pffft_aligned_malloc(n * 4);
    if (this.dataPtr === 0 || this.workPtr === 0)
      throw new Error(`RealFft: out of WASM memory for size ${n}`);
  }

  /**
   * The transform's in-place buffer inside WASM memory (n floats). Write input here, call
   * `forwardInPlace`/`inverseInPlace`, read the result here. Re-fetch after any other plan's
   * allocation: WASM memory growth replaces the view.
   */
  buffer(): Float32Array {
    const heap = this.module.HEAPF32;
    if (this.view?.buffer !== heap.buffer) {
      this.view = heap.subarray(this.dataPtr >> 2, (this.dataPtr >> 2) + this.n);
    }
    return this.view;
  }

  /** Frees the plan's WASM memory; `realFft` does this when it replaces a large plan. */
  dispose(): void {
    this.module._pffft_aligned_free(this.dataPtr);
    this.module._pffft_aligned_free(this.workPtr);
    this.module._pffft_destroy_setup(this.setup);
    this.view = undefined;
  }

  forwardInPlace(): void {
    this.module._pffft_transform_ordered(this.setup, this.dataPtr, this.dataPtr, this.workPtr, FORWARD);
  }

  inverseInPlace(): void {
    this.module._pffft_transform_ordered(this.setup, this.dataPtr, this.dataPtr, this.workPtr, BACKWARD);
  }

  /** Copies `input` (zero-padded to n) in, transforms, copies the ordered spectrum into `out` (n floats). */
  forward(input: Float32Array, out: Float32Array): void {
    const buf = this.buffer();
    buf.set(input.length > this.n ? input.subarray(0, this.n) : input);
    if (input.length < this.n) buf.fill(0, input.length);
    this.forwardInPlace();
    out.set(this.buffer());
  }

  /** Copies the ordered spectrum in, inverse-transforms (unscaled), copies the n samples into `out`. */
  inverse(spectrum: Float32Array, out: Float32Array): void {
    this.buffer().set(spectrum.subarray(0, this.n));
    this.inverseInPlace();
    out.set(this.buffer());
  }
}

function isGoodSize(n: number): boolean {
  if (n < 32 || n % 32 !== 0) return false;
  let m = n / 32;
  for (const p of [2, 3, 5]) while (m % p === 0) m /= p;
  return m === 1;
}

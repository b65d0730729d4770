import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import type { LoadedBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { loadNativeBackend, NativeRunner, type NativeBackend } from '../../../../electron/engine/native/native-backend.js';
import { closeNative } from '../../../../electron/engine/native/native-engine-hook.js';
import { readNativeModel } from '../../../../electron/engine/native/native-weights.js';
import { demoBundle } from '../demo-bundle.js';
import { buildNativeAddon } from './native-build.js';

// Device memory is released when the engine closes (Engine.close -> closeNative -> Session.close),
// not when the garbage collector gets round to the addon's objects. Exercised in CPU emulation, where
// the same Executor owns the buffers (calloc/free instead of cudaMalloc/cudaFree).
const build = buildNativeAddon();

if (build.nvccMissing) {
  describe('native session close (nvcc missing here)', () => {
    it('closeNative has nothing to release when no native session was opened', async () => {
      const { bundle, dispose } = await demoBundle('native-close-');
      expect(closeNative(bundle)).toBe(0);
      await dispose();
    });
  });
} else describe('native session close, in CPU emulation', () => {
  let bundle: LoadedBundle;
  let backend: NativeBackend;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    expect(build.status, build.log).toBe(0);
    ({ bundle, dispose } = await demoBundle('native-close-'));
    const load = loadNativeBackend({ device: 'emulate' });
    if (!load.ok) throw new Error(load.reason);
    backend = load.backend;
  });
  afterAll(() => dispose?.());

  const outFor = (runner: NativeRunner) => {
    const c = runner.nativeModel().config;
    return { codes: new Int32Array(c.codebooks), talkerLogits: new Float32Array(c.talkerVocab), talkerHidden: new Float32Array(c.talker.hidden), cpLogits: new Float32Array((c.codebooks - 1) * c.codebookSize) };
  };

  it('close() frees the buffers now and says how many bytes; a closed session refuses every call', () => {
    const model = readNativeModel(bundle);
    const session = backend.openSession(model, 'graph', 0);
    const runner = new NativeRunner(backend, bundle);
    const out = outFor(runner);
    session.prefill(Int32Array.of(1, 2, 3), out);
    // The session uploads every weight once (float32), plus caches and scratch: at least the weights' bytes.
    const weightBytes = Object.values(model.weights).reduce((a, t) => a + 4 * t.data.length, 0);
    expect(session.closed()).toBe(false);
    const freed = session.close();
    expect(freed).toBeGreaterThanOrEqual(weightBytes);
    expect(session.closed()).toBe(true);
    expect(session.close()).toBe(0);
    const closed = 'the native session is closed (close() released its device memory); open a new session';
    expect(() => session.prefill(Int32Array.of(1), out)).toThrow(`prefill: ${closed}`);
    expect(() => session.decode(2, out)).toThrow(`decode: ${closed}`);
    expect(() => session.setSampling({ ...GREEDY, seed: 0 })).toThrow(`setSampling: ${closed}`);
    expect(() => session.vocode(new Int32Array(8), 1, 0, 0, 0, new Float32Array(bundle.manifest.hopLength))).toThrow(`vocode: ${closed}`);
    expect(() => session.decodeKernelCount()).toThrow(`decodeKernelCount: ${closed}`);
  });

  it('a runner closes all its sessions (one per mode, whatever the stale step) and then refuses new ones', () => {
    const runner = new NativeRunner(backend, bundle);
    const eager = runner.session('eager', 0);
    expect(runner.session('eager', 3)).toBe(eager); // the stale step is a run setting, not a second copy of the weights
    const graph = runner.session('graph', 2);
    const one = eager.close.bind(eager);
    expect(runner.close()).toBeGreaterThan(0);
    expect(eager.closed() && graph.closed()).toBe(true);
    expect(one()).toBe(0);
    expect(() => runner.session('graph', 0)).toThrow(`native backend: the runner of bundle ${bundle.dir} is closed (its device memory was released)`);
  });

  it('closeNative releases nothing for a bundle the engine never ran natively', () => {
    expect(closeNative(bundle)).toBe(0);
  });
});

import type { LoadedBundle } from '../bundle/load-bundle.js';
import { loadAddon, type CudaProbe, type NativeAddon, type NativeSession } from './native-addon.js';
import { readNativeModel, type NativeModel } from './native-weights.js';

const version = (v: number): string => (v > 0 ? `${Math.floor(v / 1000)}.${(v % 1000) / 10}` : 'none');

/** The loaded addon on one device; sessions (device weights + buffers) are made per bundle and mode. */
export class NativeBackend {
  constructor(
    private readonly addon: NativeAddon,
    readonly device: 'cuda' | 'emulate',
    readonly addonPath: string,
    readonly probe: CudaProbe,
  ) {}

  /** One line for reports: where it runs. */
  describe(): string {
    if (this.device === 'emulate') return `native addon ${this.addonPath}, CPU emulation of the CUDA kernels`;
    return `native addon ${this.addonPath} on ${this.probe.deviceName} (CUDA runtime ${version(this.probe.runtimeVersion)}, driver ${version(this.probe.driverVersion)})`;
  }

  openSession(model: NativeModel, mode: 'eager' | 'graph', staleStep: number): NativeSession {
    return new this.addon.Session({ device: this.device, mode, config: model.config, weights: model.weights, staleStep });
  }
}

export type NativeBackendLoad = { ok: true; backend: NativeBackend } | { ok: false; reason: string };

/**
 * The native backend, or the reason it cannot run here: the addon is not built, fails to load, or loads
 * but the CUDA runtime finds no usable driver or device (its own error text). `device: 'emulate'` skips
 * the GPU (tests and the fixture check only: the engine never chooses it by itself).
 */
export function loadNativeBackend(opts: { device?: 'cuda' | 'emulate'; path?: string } = {}): NativeBackendLoad {
  const loaded = loadAddon(opts.path);
  if (!loaded.ok) return { ok: false, reason: loaded.reason };
  const device = opts.device ?? 'cuda';
  let probe: CudaProbe;
  try {
    probe = loaded.addon.probe();
  } catch (error) {
    return { ok: false, reason: `native addon ${loaded.path}: probe() failed: ${(error as Error).message}` };
  }
  if (device === 'cuda' && !probe.ok) {
    return {
      ok: false,
      reason: `native addon ${loaded.path} loaded, but no CUDA device can be used: ${probe.error} (CUDA runtime ${version(probe.runtimeVersion)}, driver ${version(probe.driverVersion)})`,
    };
  }
  return { ok: true, backend: new NativeBackend(loaded.addon, device, loaded.path, probe) };
}

/**
 * A bundle's weights parsed once, and the sessions opened on them: one per mode (the stale step is a
 * per-run setting), each holding its own device copy of the weights until close().
 */
export class NativeRunner {
  private model?: NativeModel;
  private readonly sessions = new Map<string, NativeSession>();
  private isClosed = false;

  constructor(
    readonly backend: NativeBackend,
    readonly bundle: LoadedBundle,
  ) {}

  nativeModel(): NativeModel {
    this.model ??= readNativeModel(this.bundle);
    return this.model;
  }

  session(mode: 'eager' | 'graph', staleStep: number): NativeSession {
    if (this.isClosed) throw new Error(`native backend: the runner of bundle ${this.bundle.dir} is closed (its device memory was released)`);
    let s = this.sessions.get(mode);
    if (!s) {
      s = this.backend.openSession(this.nativeModel(), mode, staleStep);
      this.sessions.set(mode, s);
    }
    s.setStaleStep(staleStep);
    return s;
  }

  /** The session already open for `mode` (none opened: undefined), without touching its settings. */
  opened(mode: 'eager' | 'graph'): NativeSession | undefined {
    return this.sessions.get(mode);
  }

  /** Releases every session's device memory now (not at garbage collection); returns the bytes freed. */
  close(): number {
    this.isClosed = true;
    let bytes = 0;
    for (const s of this.sessions.values()) bytes += s.close();
    this.sessions.clear();
    return bytes;
  }
}

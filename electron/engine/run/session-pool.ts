import { join } from 'node:path';
import { BundleError } from '../../common/errors.js';
import type { LoadedBundle } from '../bundle/load-bundle.js';
import { checkExportAgainstSession } from '../bundle/check-tensors.js';
import type { NetworkExport } from '../bundle/manifest.js';
import { openSession, sessionIo, type ExecutionProviderName, type OpenedSession } from '../ort-session.js';

/**
 * ORT sessions of one bundle, keyed by (file, optimisation, execution provider), opened on first use
 * and reused across synthesis calls. Every session is checked against the manifest when it opens.
 */
export class SessionPool {
  private readonly sessions = new Map<string, Promise<OpenedSession>>();

  constructor(private readonly bundle: LoadedBundle) {}

  get(label: string, exp: NetworkExport, optimize: boolean, ep: ExecutionProviderName): Promise<OpenedSession> {
    const key = `${exp.file}|${optimize ? 'all' : 'disabled'}|${ep}`;
    let hit = this.sessions.get(key);
    if (!hit) {
      hit = this.open(label, exp, optimize, ep);
      this.sessions.set(key, hit);
      hit.catch(() => this.sessions.delete(key));
    }
    return hit;
  }

  /** Opens every export of the bundle once (eager options, CPU) and checks it: Engine.open's validation. */
  async validateAll(): Promise<void> {
    for (const { label, exp } of this.bundle.exports) await this.get(label, exp, false, 'cpu');
  }

  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const p of all) {
      const s = await p.catch(() => undefined);
      await s?.session.release();
    }
  }

  private async open(label: string, exp: NetworkExport, optimize: boolean, ep: ExecutionProviderName): Promise<OpenedSession> {
    const bytes = this.bundle.files.get(exp.file);
    if (!bytes) throw new BundleError(`${exp.file}: not loaded with the bundle (${label})`, exp.file);
    let opened: OpenedSession;
    try {
      opened = await openSession(bytes, { optimize, ep, name: { label, file: join(this.bundle.dir, exp.file) } });
    } catch (error) {
      throw new BundleError(`${join(this.bundle.dir, exp.file)}: ONNX Runtime cannot load this model (${label}): ${(error as Error).message}`, exp.file);
    }
    checkExportAgainstSession(label, exp, sessionIo(opened.session), join(this.bundle.dir, exp.file));
    return opened;
  }
}

import { loadBundle, type LoadedBundle } from './bundle/load-bundle.js';
import { layoutLines } from './bundle/layout-summary.js';
import type { NetworkExport } from './bundle/manifest.js';
import type { ExecutionProfile } from '../common/profile/types.js';
import type { SamplingParams } from '../common/sampling/types.js';
import { closeNative, nativeBackendFor, synthesizeOnNative } from './native/native-engine-hook.js';
import { chooseExports, makePlan } from './plan.js';
import { EmbeddingTable } from './run/embedding-table.js';
import { RunClock } from './run/run-clock.js';
import { SessionPool } from './run/session-pool.js';
import { synthesizeWith } from './synthesize.js';
import type { BundleInfo, SynthesisOptions, SynthesisRequest, SynthesisResult } from './types.js';

/** embed.table: rows read from the file when needed; embed.export: the whole table read once through its graph. */
async function openTable(bundle: LoadedBundle, pool: SessionPool): Promise<EmbeddingTable> {
  const m = bundle.manifest;
  if (bundle.tableFile) return EmbeddingTable.fromFile(bundle.tableFile, m);
  const embed = await pool.get('embed', m.embed.export as NetworkExport, false, 'cpu');
  return EmbeddingTable.read(embed.session, m, new RunClock());
}

export { resolveDemoBundle } from './demo/resolve-demo-bundle.js';
export type { BundleInfo, SynthesisOptions, SynthesisProgress, SynthesisRequest, SynthesisResult } from './types.js';

/**
 * One bundle, opened and validated once; ORT sessions are kept per (file, optimisation, execution
 * provider) and reused across calls. Calls to synthesize run one at a time, in call order.
 */
export class Engine {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly bundle: LoadedBundle,
    private readonly pool: SessionPool,
    private readonly table: EmbeddingTable,
  ) {}

  /** Loads bundle.json, opens every model and checks it against the manifest (BundleError on any mismatch). */
  static async open(bundleDir: string): Promise<Engine> {
    const bundle = await loadBundle(bundleDir);
    const pool = new SessionPool(bundle);
    try {
      await pool.validateAll();
      return new Engine(bundle, pool, await openTable(bundle, pool));
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  info(): BundleInfo {
    const m = this.bundle.manifest;
    const dec = (d: typeof m.talker | NonNullable<typeof m.codePredictor>) => ({
      layers: d.layers,
      heads: d.heads,
      kvHeads: d.kvHeads,
      headDim: d.headDim,
      hidden: d.hidden,
      maxPositions: d.maxPositions,
      exports: Object.keys(d.exports),
    });
    return {
      dir: this.bundle.dir,
      name: m.name,
      description: m.description,
      hash: this.bundle.hash,
      sampleRate: m.sampleRate,
      frameRate: m.frameRate,
      codebooks: m.codebooks,
      codebookSize: m.codebookSize,
      framesPerChar: m.text.framesPerChar,
      tokenizer: this.bundle.tokenizer.info,
      maxFrames: m.maxFrames,
      talker: dec(m.talker),
      ...(m.codePredictor ? { codePredictor: dec(m.codePredictor) } : {}),
      ...(m.encoder ? { encoder: { hidden: m.encoder.hidden, maxPositions: m.encoder.maxPositions, exports: Object.keys(m.encoder.exports) } } : {}),
      vocoder: { leftContextFrames: m.vocoder.leftContextFrames, chunkFrames: m.vocoder.chunkFrames, exports: Object.keys(m.vocoder.exports) },
      layout: layoutLines(m),
      files: this.bundle.exports.map(({ label, exp }) => ({
        label,
        file: exp.file,
        inputs: exp.inputs.map((t) => `${t.name} ${t.dtype} [${t.shape.join(', ')}]`),
        outputs: exp.outputs.map((t) => `${t.name} ${t.dtype} [${t.shape.join(', ')}]`),
      })),
    };
  }

  /**
   * Throws what synthesize would throw for this profile before anything runs — an export the bundle
   * lacks, batch=N without batched exports, backend=native unavailable — and opens nothing, so a
   * comparison refuses a profile it cannot run before it spends time on the other side.
   */
  checkRunnable(profile: ExecutionProfile, sampling: SamplingParams): void {
    if (profile.backend === 'native') nativeBackendFor(profile, sampling);
    else chooseExports(this.bundle, profile);
  }

  synthesize(req: SynthesisRequest, opts: SynthesisOptions = {}): Promise<SynthesisResult> {
    if (this.closed) return Promise.reject(new Error('Engine.synthesize: the engine is closed'));
    const job = this.queue.then(async () => {
      if (req.profile.backend === 'native') return synthesizeOnNative(this.bundle, req, opts);
      const plan = await makePlan(this.bundle, this.pool, this.table, req.profile, opts.recordFeeds);
      return synthesizeWith(plan, req, opts);
    });
    this.queue = job.catch(() => undefined);
    return job;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    closeNative(this.bundle);
    this.table.close();
    await this.pool.close();
  }
}

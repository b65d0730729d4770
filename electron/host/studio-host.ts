import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type {
  AbxSession,
  BundleInfo,
  CompareRequest,
  ComparisonResult,
  ExportFixtureRequest,
  ImportTracesRequest,
  ImportWavsRequest,
  JobProgress,
  StudioEvents,
  StudioHandlers,
  SynthesisResult,
  SynthesizeRequest,
  ImportFile,
} from '../common/api/index.js';
import { TypedEmitter } from '../common/api/event-emitter.js';
import { CancelledError, InputError, toErrorPayload } from '../common/errors.js';
import { fsReason } from '../common/fs-reason.js';
import { defaultDataDir } from './data-dir.js';
import { exportFixture } from './export-fixture.js';
import { HistoryStore, MAX_KEPT_TRACE_BYTES } from './history-store.js';
import { JobTable, type JobKind } from './job-table.js';
import { swapKeptImport, type WavSource } from './kept-import.js';
import { readSidecarInput } from './read-sidecar-input.js';
import { unresolvedUpload } from './unresolved-upload.js';
import type { DrillReport } from '../common/report/drill.js';
import type { CompareTraceTextsTask } from './tasks/compare-trace-texts.js';
import type { CompareWavBytesTask } from './tasks/compare-wav-bytes.js';
import type { DrillTask } from './tasks/drill-task.js';
import type { WorkerOptions } from './tasks/run-task.js';
import { runWorkerTask, type WorkerResult, type WorkerTaskKind, type WorkerTaskOf } from './tasks/worker-tasks.js';
import { engineWorkerUrl } from './worker-url.js';
import { WorkerSupervisor } from './worker-supervisor.js';
import { readFileSync } from 'node:fs';
import { bothEndpoints } from './endpoint/both-endpoints.js';
import { compareEndpoints } from './endpoint/compare-endpoints.js';
import type { EndpointSpec } from '../common/profile/endpoint-side.js';

export interface StudioHostOptions {
  /** History and settings; `defaultDataDir()` when absent. */
  dataDir?: string;
  /** Model bundle; the embedded demo bundle when absent. */
  bundleDir?: string;
  workerUrl?: URL;
  /** A worker silent this long during a task is treated as hung (default 30 s). */
  hangTimeoutMs?: number;
  resourceLimits?: ResourceLimits;
  /** Hosts besides loopback that endpoint sides may call (`parity serve --allow-host`). */
  allowHosts?: readonly string[];
}

/** The one implementation of StudioApi: the engine runs in a supervised worker thread, history on disk. */
export class StudioHost implements StudioHandlers {
  readonly dataDir: string;
  readonly history: HistoryStore;
  private readonly events = new TypedEmitter<StudioEvents>();
  private readonly supervisor: WorkerSupervisor;
  private readonly jobs = new JobTable();
  private internal = 0;
  private readonly allowHosts: readonly string[];

  constructor(options: StudioHostOptions = {}) {
    this.dataDir = options.dataDir ?? defaultDataDir();
    this.allowHosts = options.allowHosts ?? [];
    this.history = new HistoryStore(this.dataDir);
    const workerData: WorkerOptions = { bundleDir: options.bundleDir };
    this.supervisor = new WorkerSupervisor({
      url: options.workerUrl ?? engineWorkerUrl(),
      workerData,
      hangTimeoutMs: options.hangTimeoutMs ?? 30_000,
      // Two 10-minute float32 renderings and their traces fit well inside this.
      resourceLimits: options.resourceLimits ?? { maxOldGenerationSizeMb: 3072 },
      onRestart: (reason) => this.events.emit('workerRestarted', reason),
    });
  }

  /** The supervisor, for diagnostics and tests that kill the worker from outside. */
  get engineWorker(): WorkerSupervisor {
    return this.supervisor;
  }

  on: StudioHandlers['on'] = (name, listener) => this.events.on(name, listener);

  async dispose(): Promise<void> {
    await this.supervisor.dispose();
    this.events.removeAll();
  }

  async bundleInfo(): Promise<BundleInfo> {
    return this.runInternal('bundle info', { kind: 'info' });
  }

  async synthesize(request: SynthesizeRequest): Promise<{ jobId: string }> {
    const jobId = this.startJob('synthesis', (jobId, signal) =>
      runWorkerTask(this.supervisor, jobId, `synthesis of "${request.profile}"`, { kind: 'synthesize', request }, { onProgress: this.progress(jobId), signal }),
    );
    return { jobId };
  }

  async synthesisResult({ jobId }: { jobId: string }): Promise<SynthesisResult> {
    return (await this.jobs.take(jobId, 'synthesis')) as SynthesisResult;
  }

  async compare(request: CompareRequest): Promise<{ jobId: string }> {
    const endpoints = bothEndpoints(request.profileA, request.profileB);
    if (endpoints) return this.compareEndpointSides(request, endpoints);
    const jobId = this.startJob('comparison', async (jobId, signal): Promise<ComparisonResult> => {
      const onProgress = this.progress(jobId);
      const what = `comparison "${request.profileA}" vs "${request.profileB}"`;
      const raw = await runWorkerTask(this.supervisor, jobId, what, { kind: 'compare', request }, { onProgress, signal });
      onProgress({ phase: 'save', step: 0, totalSteps: 0, fraction: 1, message: 'saving to history' });
      const saved = await this.history.save({
        kind: 'profiles',
        title: `${raw.profileA} vs ${raw.profileB}`,
        text: request.text,
        report: raw.report,
        a: raw.a,
        b: raw.b,
      });
      this.events.emit('historyChanged');
      return { historyId: saved.historyId, report: saved.report, a: saved.a, b: saved.b };
    });
    return { jobId };
  }

  /** Two speech endpoints (compare-endpoints.ts) as a job in this process: `cancel` aborts the request in flight. */
  private compareEndpointSides(request: CompareRequest, sides: { a: EndpointSpec; b: EndpointSpec }): { jobId: string } {
    const jobId = this.startJob('comparison', async (jobId, signal): Promise<ComparisonResult> => {
      const onProgress = this.progress(jobId);
      const c = await compareEndpoints(
        { text: request.text, a: sides.a, b: sides.b, seed: request.seed, sampling: request.sampling },
        {
          allowHosts: this.allowHosts,
          env: process.env,
          signal,
          createdAt: new Date().toISOString(),
          onSide: (side, state) =>
            onProgress({ phase: side, step: 0, totalSteps: 0, fraction: side === 'A' ? (state === 'request' ? 0 : 0.5) : state === 'request' ? 0.5 : 0.9, message: `endpoint ${side}: ${state === 'request' ? `waiting for ${sides[side === 'A' ? 'a' : 'b'].url}` : 'answered'}` }),
        },
      );
      onProgress({ phase: 'save', step: 0, totalSteps: 0, fraction: 1, message: 'saving to history' });
      const rate = c.report.sources!.a.sampleRate;
      const saved = await this.history.save({
        kind: c.traces ? 'traces' : 'wavs',
        title: `${sides.a.url} vs ${sides.b.url}`,
        text: request.text,
        report: c.report,
        a: { sampleRate: rate, samples: c.a },
        b: { sampleRate: rate, samples: c.b },
        ...(c.traces ? { traces: { a: readFileSync(c.traces.a.file, 'utf8'), b: readFileSync(c.traces.b.file, 'utf8') } } : {}),
      });
      this.events.emit('historyChanged');
      return { historyId: saved.historyId, report: saved.report, a: saved.a, b: saved.b };
    });
    return { jobId };
  }

  async comparisonResult({ jobId }: { jobId: string }): Promise<ComparisonResult> {
    return (await this.jobs.take(jobId, 'comparison')) as ComparisonResult;
  }

  async cancel({ jobId }: { jobId: string }): Promise<{ cancelled: boolean }> {
    return { cancelled: this.jobs.cancel(jobId) };
  }

  async importWavs(request: ImportWavsRequest): Promise<ComparisonResult> {
    const a = await wavSource(request.a);
    const b = await wavSource(request.b);
    return this.compareWavPair(a, b, request.maxLagMs, (what, task) => this.runInternal(what, task));
  }

  /**
   * importWavs as a job: files given by path are checked readable before the job id is returned, and read
   * by the worker; the caller keeps them in place until the job finishes (`jobFinished`).
   */
  async startImportWavs(request: ImportWavsRequest): Promise<{ jobId: string }> {
    const a = await wavSource(request.a);
    const b = await wavSource(request.b);
    const jobId = this.startJob('comparison', async (jobId, signal): Promise<ComparisonResult> => {
      const onProgress = this.progress(jobId);
      onProgress({ phase: 'compare', step: 0, totalSteps: 0, fraction: 0, message: `measuring ${basename(b.name)} against ${basename(a.name)}` });
      // The worker's comparison of two WAVs has no steps to stop at: a cancel that comes while it runs (or
      // after) is honoured before anything is saved.
      const run = async (what: string, task: CompareWavBytesTask) => {
        const raw = await runWorkerTask(this.supervisor, jobId, what, task, { onProgress, signal });
        if (signal.aborted) throw new CancelledError(`${jobId} cancelled; nothing was saved`);
        return raw;
      };
      const result = await this.compareWavPair(a, b, request.maxLagMs, run);
      onProgress({ phase: 'save', step: 0, totalSteps: 0, fraction: 1, message: 'saved to history' });
      return request.withoutAudio ? { historyId: result.historyId, report: result.report } : result;
    });
    return { jobId };
  }

  private async compareWavPair(
    a: WavSource,
    b: WavSource,
    maxLagMs: number,
    run: (what: string, task: CompareWavBytesTask) => Promise<WorkerResult<'compare-wavs'>>,
  ): Promise<ComparisonResult> {
    const task: CompareWavBytesTask = { kind: 'compare-wavs', a, b, maxLagMs, createdAt: new Date().toISOString() };
    // Files on disk go to the worker as paths (it reads them; the history copies them for Swap A/B). Bytes
    // are copied to the worker, not transferred: the history keeps the files as given.
    const raw = await run(`comparison of ${a.name} and ${b.name}`, task);
    const imported = { kind: 'wavs' as const, request: { a, b, maxLagMs } };
    const saved = await this.history.save({ kind: 'wavs', title: `${basename(a.name)} vs ${basename(b.name)}`, ...raw, imported });
    this.events.emit('historyChanged');
    return { historyId: saved.historyId, report: saved.report, a: saved.a, b: saved.b };
  }

  async importTraces(request: ImportTracesRequest): Promise<ComparisonResult> {
    const [traceA, traceB] = [request.a, request.b].map((side) => ('upload' in side ? unresolvedUpload(side) : side));
    for (const side of [traceA, traceB]) {
      const bytes = Buffer.byteLength(side.text, 'utf8');
      if (bytes > MAX_KEPT_TRACE_BYTES) {
        const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
        throw new InputError(`${side.name} is ${mb(bytes)}; the studio keeps imported traces up to ${mb(MAX_KEPT_TRACE_BYTES)} each (so an export can be re-checked by parity gate): compare larger traces with parity compare-trace --out`, side.name);
      }
    }
    const wavA = request.wavA && (await wavSource(request.wavA));
    const wavB = request.wavB && (await wavSource(request.wavB));
    const modulesA = request.modulesA && (await readSidecarInput(request.modulesA));
    const modulesB = request.modulesB && (await readSidecarInput(request.modulesB));
    const task: CompareTraceTextsTask = { kind: 'compare-traces', a: traceA, b: traceB, wavA, wavB, modulesA, modulesB, maxLagMs: request.maxLagMs, createdAt: new Date().toISOString() };
    // Copied to the worker, not transferred: the history keeps the files as given, for Swap A/B.
    const raw = await this.runInternal(`comparison of ${traceA.name} and ${traceB.name}`, task);
    const kept = raw.report.moduleDrill && modulesA && modulesB ? { modules: { a: modulesA.bytes, b: modulesB.bytes } } : {};
    const traces = { a: traceA.text, b: traceB.text, ...kept };
    const sides = { ...(wavA && wavB ? { wavA, wavB } : {}), ...(modulesA ? { modulesA } : {}), ...(modulesB ? { modulesB } : {}) };
    const imported = { kind: 'traces' as const, request: { a: traceA, b: traceB, ...sides, maxLagMs: request.maxLagMs } };
    const saved = await this.history.save({ kind: 'traces', title: `${basename(traceA.name)} vs ${basename(traceB.name)}`, ...raw, traces, imported });
    this.events.emit('historyChanged');
    return { historyId: saved.historyId, report: saved.report, a: saved.a, b: saved.b };
  }

  async exportFixture(request: ExportFixtureRequest): Promise<{ dir: string; files: string[] }> {
    const entry = await this.history.open(request.id);
    return exportFixture(entry, request.dir, request.overwrite, await this.history.readTraces(request.id));
  }

  async listHistory(): Promise<{ entries: Awaited<ReturnType<HistoryStore['list']>> }> {
    return { entries: await this.history.list() };
  }

  async openHistory({ id }: { id: string }): Promise<ComparisonResult> {
    return this.history.open(id);
  }

  async swapHistory({ id }: { id: string }): Promise<ComparisonResult> {
    const kept = await this.history.readImport(id);
    if (!kept) throw new InputError(`history entry ${id} keeps no imported files (a synthesized comparison, or imported before the history kept them): import the files again with A and B exchanged`, id);
    const swapped = swapKeptImport(kept);
    return swapped.kind === 'wavs' ? this.importWavs(swapped.request) : this.importTraces(swapped.request);
  }

  async deleteHistory({ id }: { id: string }): Promise<{ deleted: boolean }> {
    const deleted = await this.history.delete(id);
    if (deleted) this.events.emit('historyChanged');
    return { deleted };
  }

  async saveAbx({ id, session }: { id: string; session: AbxSession }): Promise<{ saved: boolean }> {
    await this.history.saveAbx(id, session);
    this.events.emit('historyChanged');
    return { saved: true };
  }

  async exportLocation({ id }: { id: string }): Promise<{ dir: string }> {
    this.history.dirOf(id);
    return { dir: join(this.dataDir, 'exports', id) };
  }

  /** A job, like compare: progress events, `cancel`; the drill is saved with the entry only when it completes. */
  async drillHistory({ id }: { id: string }): Promise<{ jobId: string }> {
    const entry = await this.history.open(id);
    const report = entry.report as { rerun?: DrillTask['rerun']; divergence?: DrillTask['divergence'] };
    if (!report.rerun || !report.divergence) {
      throw new InputError(`history entry ${id} is not a synthesized A/B comparison (no settings to re-run): only those can be drilled into`, id);
    }
    const task: DrillTask = { kind: 'drill', rerun: report.rerun, divergence: { firstStep: report.divergence.firstStep, stage: report.divergence.stage } };
    const jobId = this.startJob('drill-down', async (jobId, signal): Promise<DrillReport> => {
      const onProgress = this.progress(jobId);
      const drill = await runWorkerTask(this.supervisor, jobId, `drill-down of ${id}`, task, { onProgress, signal });
      onProgress({ phase: 'save', step: 0, totalSteps: 0, fraction: 1, message: 'saving the drill-down with the comparison' });
      await this.history.saveDrill(id, drill);
      this.events.emit('historyChanged');
      return drill;
    });
    return { jobId };
  }

  async drillResult({ jobId }: { jobId: string }): Promise<DrillReport> {
    return (await this.jobs.take(jobId, 'drill-down')) as DrillReport;
  }

  private runInternal<K extends WorkerTaskKind>(what: string, task: WorkerTaskOf<K>): Promise<WorkerResult<K>> {
    return runWorkerTask(this.supervisor, `job-internal-${++this.internal}`, what, task);
  }

  /** A job of `kind` (see JobTable.start) whose ending is announced as `jobFinished`. */
  private startJob(kind: JobKind, work: (jobId: string, signal: AbortSignal) => Promise<unknown>): string {
    return this.jobs.start(kind, (jobId, signal) => this.track(jobId, work(jobId, signal)));
  }

  private progress(jobId: string): (p: JobProgress) => void {
    return (p) => this.events.emit('progress', jobId, p);
  }

  /** Emits `jobFinished` when the job settles, whichever way. */
  private track<T>(jobId: string, result: Promise<T>): Promise<T> {
    result.then(
      () => this.events.emit('jobFinished', jobId, { state: 'done' }),
      (error: unknown) => {
        const payload = toErrorPayload(error);
        this.events.emit('jobFinished', jobId, { state: payload.kind === 'cancelled' ? 'cancelled' : 'failed', error: payload });
      },
    );
    return result;
  }
}

/** A WAV input as the worker takes it: bytes as given, a path checked readable now (read by the worker). */
async function wavSource(input: ImportFile): Promise<WavSource> {
  if ('bytes' in input) return input;
  if ('upload' in input) unresolvedUpload(input);
  try {
    // A read of one byte: opening a folder succeeds, reading it does not (EISDIR, as a whole read gives).
    const file = await open(input.path, 'r');
    await file.read(Buffer.alloc(1), 0, 1, 0).finally(() => file.close());
  } catch (error) {
    throw new InputError(`${input.path}: cannot read (${fsReason(error)})`, input.path);
  }
  return { name: input.name ?? input.path, path: input.path };
}

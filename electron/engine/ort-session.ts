import type ort from 'onnxruntime-node';
import { ortEnvironment, ortModule } from './ort-environment.js';
import { describeFeeds, OrtRunError, parseOrtFailure, type SessionName } from './ort-run-error.js';

/**
 * The one file that uses onnxruntime-node (loaded on first use by ort-environment.ts): session creation
 * with the profile's options and execution provider, tensor construction, and the session's own
 * input/output metadata.
 */

export type OrtTensor = ort.Tensor;
export type OrtSession = ort.InferenceSession;
export type Feeds = Record<string, ort.Tensor>;
export type ExecutionProviderName = 'cpu' | 'cuda';

export interface SessionOptions {
  /** false: graphOptimizationLevel 'disabled' (eager); true: 'all' (graph). */
  optimize: boolean;
  ep: ExecutionProviderName;
  /** Named in every error of this session's runs (OrtRunError). */
  name?: SessionName;
}

export interface OpenedSession {
  session: OrtSession;
  /** The provider that actually runs the session. */
  provider: ExecutionProviderName;
  /** When `ep` was cuda and CPU runs instead: the error ORT gave for CUDA, verbatim. */
  fallback?: string;
}

function ortOptions(o: SessionOptions, ep: ExecutionProviderName): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [ep],
    graphOptimizationLevel: o.optimize ? 'all' : 'disabled',
    // One thread per session: results do not depend on the machine's core count, and several
    // engineers' tests share 2 cores.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    // Eager runs change shape every step; the graph profile's shapes never change, so its memory plan holds.
    enableMemPattern: o.optimize,
  };
}

export async function openSession(model: Uint8Array, o: SessionOptions): Promise<OpenedSession> {
  const opened = await create(model, o);
  // A symbol property rather than a WeakMap: proxies of the session (the drill-down's FeedTap) read it through.
  if (o.name) Object.defineProperty(opened.session, SESSION_NAME, { value: o.name });
  return opened;
}

const SESSION_NAME = Symbol('parity.sessionName');

async function create(model: Uint8Array, o: SessionOptions): Promise<OpenedSession> {
  const ort = await ortEnvironment();
  if (o.ep === 'cuda') {
    try {
      return { session: await ort.InferenceSession.create(model, ortOptions(o, 'cuda')), provider: 'cuda' };
    } catch (error) {
      const fallback = `CUDA execution provider unavailable: ${error instanceof Error ? error.message : String(error)}`;
      return { session: await ort.InferenceSession.create(model, ortOptions(o, 'cpu')), provider: 'cpu', fallback };
    }
  }
  return { session: await ort.InferenceSession.create(model, ortOptions(o, 'cpu')), provider: 'cpu' };
}

export interface FoundTensor {
  name: string;
  /** ORT's type name, or 'non-tensor'. */
  dtype: string;
  /** Empty when the model declares no shape. */
  shape: readonly (number | string)[];
}

export function sessionIo(session: OrtSession): { inputs: FoundTensor[]; outputs: FoundTensor[] } {
  const map = (m: readonly ort.InferenceSession.ValueMetadata[]): FoundTensor[] =>
    m.map((v) => (v.isTensor ? { name: v.name, dtype: v.type, shape: v.shape } : { name: v.name, dtype: 'non-tensor', shape: [] }));
  return { inputs: map(session.inputMetadata), outputs: map(session.outputMetadata) };
}

export function f32Tensor(data: Float32Array, dims: number[]): OrtTensor {
  return new (ortModule().Tensor)('float32', data, dims);
}

export function f16Tensor(bits: Uint16Array, dims: number[]): OrtTensor {
  return new (ortModule().Tensor)('float16', bits, dims);
}

export function f64Tensor(data: Float64Array, dims: number[]): OrtTensor {
  return new (ortModule().Tensor)('float64', data, dims);
}

export function i64Tensor(data: BigInt64Array, dims: number[]): OrtTensor {
  return new (ortModule().Tensor)('int64', data, dims);
}

/** An empty (past length 0) or zero-filled float tensor of the given float type. */
export function zeroTensor(float: 'float32' | 'float16', dims: number[]): OrtTensor {
  const n = dims.reduce((a, b) => a * b, 1);
  return float === 'float16' ? f16Tensor(new Uint16Array(n), dims) : f32Tensor(new Float32Array(n), dims);
}

/**
 * session.run; any error it throws becomes an OrtRunError naming the session (SessionOptions.name),
 * the failing node ORT names, and the shapes fed.
 */
export async function run(session: OrtSession, feeds: Feeds, fetches?: Feeds): Promise<Feeds> {
  try {
    if (fetches) return (await session.run(feeds, fetches)) as Feeds;
    return (await session.run(feeds)) as Feeds;
  } catch (error) {
    const name = (session as unknown as Record<symbol, SessionName | undefined>)[SESSION_NAME];
    throw new OrtRunError(name, parseOrtFailure(error instanceof Error ? error.message : String(error)), describeFeeds(feeds));
  }
}

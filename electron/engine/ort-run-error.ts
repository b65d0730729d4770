import { ParityError } from '../common/errors.js';

/** Which export a session runs, for error messages: `label` as the loader writes it ("talker eager-fp32"), `file` its path. */
export interface SessionName {
  label: string;
  file: string;
}

/** ONNX Runtime's run error, parsed: the failing node and its op type where ORT names them, and ORT's own words. */
export interface OrtFailure {
  opType?: string;
  node?: string;
  /** ORT's status message without its C++ source location, e.g. "left operand cannot broadcast on dim 1". */
  detail: string;
}

const NODE_FAILURE = /while running (\S+) node\. Name:'([^']*)' Status Message: ([\s\S]*)$/;

/**
 * "Non-zero status code returned while running MatMul node. Name:'/MatMul_3' Status Message:
 * matmul_helper.h:142 Compute left operand cannot broadcast on dim 1" → MatMul, /MatMul_3, and
 * "left operand cannot broadcast on dim 1" (the source file:line and the C++ function are dropped).
 */
export function parseOrtFailure(message: string): OrtFailure {
  const m = NODE_FAILURE.exec(message.trim());
  if (!m) return { detail: message.trim() };
  let detail = m[3].trim();
  const location = /^[\w./\\-]+\.(?:h|cc|cpp):\d+\s+/.exec(detail);
  // After ORT_ENFORCE's file:line comes the C++ function: "Compute" or "onnxruntime::X::X(const T&, …)".
  if (location) detail = detail.slice(location[0].length).replace(/^[\w:~<>]+(?:\((?:[^()]|\([^()]*\))*\))?\s+(?:const\s+)?/, '');
  return { opType: m[1], node: m[2], detail: detail.replace(/\s*\n\s*/g, ' ') };
}

/** A fed tensor as ORT sees it. */
export interface FedTensor {
  readonly type: string;
  readonly dims: readonly number[];
}

/**
 * The feeds of one run, one entry per distinct tensor: `inputs_embeds float32 [1, 3, 32]`; the
 * past_key_values of all layers collapse to one entry when they share a shape
 * (`past_key_values.{0..1}.key|value float32 [1, 2, 4, 8]`).
 */
export function describeFeeds(feeds: Record<string, FedTensor>): string {
  const entry = (t: FedTensor) => `${t.type} [${t.dims.join(', ')}]`;
  const past = Object.entries(feeds).filter(([n]) => /^past_key_values\.\d+\.(key|value)$/.test(n));
  const pastShapes = new Set(past.map(([, t]) => entry(t)));
  const parts: string[] = [];
  for (const [name, t] of Object.entries(feeds)) {
    if (past.length > 1 && pastShapes.size === 1 && /^past_key_values\./.test(name)) continue;
    parts.push(`${name} ${entry(t)}`);
  }
  if (past.length > 1 && pastShapes.size === 1) {
    const layers = new Set(past.map(([n]) => Number(n.split('.')[1])));
    parts.push(`past_key_values.{0..${Math.max(...layers)}}.key|value ${[...pastShapes][0]}`);
  }
  return parts.join(', ');
}

/** What to change in the export, from what failed: sizes that do not fit are usually a length traced into the graph. */
export function fixHint(f: OrtFailure): string {
  const shapeWords = /broadcast|reshape|requested shape|shape mismatch|dimension|dims|invalid input shape|incompatible/i;
  if (f.opType === 'Gather' || /out of (data )?bounds|indices/i.test(f.detail)) {
    return 'an index beyond a table: position_ids past a table of maxPositions rows, or an id past the embedding rows (check the sizes in bundle.json)';
  }
  if (['Reshape', 'Expand', 'Tile', 'MatMul', 'Concat', 'Add', 'Mul', 'Where', 'Softmax', 'Split', 'Slice'].includes(f.opType ?? '') || shapeWords.test(f.detail)) {
    return (
      'a length baked into the export: GQA written with repeat_interleave (torch.onnx.export traces the example length into a Reshape)? ' +
      'Use expand + reshape with sizes taken from tensor.shape, re-export, and run `parity bundle check DIR --smoke`'
    );
  }
  return 'the export fails on inputs that bundle.json allows; run `parity bundle check DIR --smoke` to see which sizes fail';
}

/**
 * An ONNX Runtime error during a run, named by network, export key, file, where in the run (the
 * synthesis step, or the sizes a smoke check fed) and the feeds. A node
 * failure is the bundle's fault (kind 'bundle', exit 2); any other run error means the engine fed
 * what the checked model refuses, an engine bug (kind 'internal', exit 3), still with the same context.
 */
export class OrtRunError extends ParityError {
  constructor(
    readonly session: SessionName | undefined,
    readonly failure: OrtFailure,
    readonly feeds: string,
    /** Where in the run: "step 3", "after step 12 (…)", "at sequence length 3, past length 4". */
    readonly at?: string,
  ) {
    super(failure.node === undefined ? 'internal' : 'bundle', composeMessage(session, failure, feeds, at), session?.file);
    this.name = 'OrtRunError';
  }

  /** The same error, placed in the run ("step 3"); one already placed is kept. */
  placed(at: string): OrtRunError {
    return this.at === undefined ? new OrtRunError(this.session, this.failure, this.feeds, at) : this;
  }
}

function composeMessage(session: SessionName | undefined, f: OrtFailure, feeds: string, where?: string): string {
  const who = session ? `${session.label} (${session.file})` : 'an ONNX Runtime session';
  const at = where === undefined ? '' : `, ${where}`;
  if (f.node === undefined) {
    return `internal error (the engine fed what the model refuses; please report it): ${who}${at}: ONNX Runtime refused the run fed ${feeds}: ${f.detail}`;
  }
  return `${who}${at}: ONNX Runtime failed in node "${f.node}" (${f.opType}) fed ${feeds}: ${f.detail}; fix: ${fixHint(f)}`;
}

/** Runs `stage`, naming `step` in any OrtRunError it throws (one that already names a step is kept). */
export async function atStep<T>(step: string, stage: () => Promise<T>): Promise<T> {
  try {
    return await stage();
  } catch (error) {
    throw error instanceof OrtRunError ? error.placed(step) : error;
  }
}

import onnxProto from 'onnx-proto';
import { BundleError } from '../../common/errors.js';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** A float32 initializer: row-major data and its dims. */
export interface FloatTensor {
  data: Float32Array;
  dims: number[];
}

/** One ONNX file's float32 initializers by name, and the scalar constants its nodes read. */
export class OnnxInitializers {
  private readonly inits = new Map<string, onnxProto.onnx.ITensorProto>();
  private readonly producers = new Map<string, onnxProto.onnx.INodeProto>();
  private readonly nodes = new Map<string, onnxProto.onnx.INodeProto>();

  constructor(
    readonly file: string,
    bytes: Uint8Array,
  ) {
    let model: onnxProto.onnx.ModelProto;
    try {
      model = onnx.ModelProto.decode(bytes);
    } catch (error) {
      throw new BundleError(`${file}: not a readable ONNX model (${(error as Error).message})`, file);
    }
    for (const t of model.graph?.initializer ?? []) this.inits.set(t.name ?? '', t);
    for (const n of model.graph?.node ?? []) {
      this.nodes.set(n.name ?? '', n);
      for (const out of n.output ?? []) this.producers.set(out, n);
    }
  }

  /** The float32 initializer `name` with exactly `dims`; BundleError naming file, tensor, expected and found. */
  tensor(name: string, dims: number[]): FloatTensor {
    const t = this.inits.get(name);
    if (!t) throw new BundleError(`${this.file}: initializer "${name}" not found (the native backend needs it)`, `${this.file}:${name}`);
    const found = (t.dims ?? []).map(Number);
    if (t.dataType !== FLOAT) throw new BundleError(`${this.file}: initializer "${name}": expected float32, found ONNX data type ${t.dataType}`, `${this.file}:${name}`);
    if (found.length !== dims.length || found.some((d, i) => d !== dims[i])) {
      throw new BundleError(`${this.file}: initializer "${name}": expected [${dims.join(', ')}], found [${found.join(', ')}]`, `${this.file}:${name}`);
    }
    return { data: floatData(this.file, name, t, count(dims)), dims };
  }

  /** Dims of initializer `name` (BundleError if absent). */
  dims(name: string): number[] {
    const t = this.inits.get(name);
    if (!t) throw new BundleError(`${this.file}: initializer "${name}" not found (the native backend needs it)`, `${this.file}:${name}`);
    return (t.dims ?? []).map(Number);
  }

  has(name: string): boolean {
    return this.inits.has(name);
  }

  /** The scalar float32 constant that node `nodeName` takes as input `index`. */
  scalarInput(nodeName: string, index: number): number {
    const node = this.nodes.get(nodeName);
    const input = node?.input?.[index];
    if (!input) throw new BundleError(`${this.file}: node "${nodeName}" with an input ${index} not found (the native backend reads a constant there)`, `${this.file}:${nodeName}`);
    return this.tensor(input, []).data[0];
  }

  /** The scalar float32 constant added by the first Add node whose name starts with `scope` (RMSNorm eps). */
  scalarAddend(scope: string): number {
    for (const [name, node] of this.nodes) {
      if (!name.startsWith(scope) || node.opType !== 'Add') continue;
      const constant = (node.input ?? []).find((i) => this.inits.get(i)?.dims?.length === 0);
      if (constant) return this.tensor(constant, []).data[0];
    }
    throw new BundleError(`${this.file}: no Add of a scalar constant under "${scope}" (the native backend reads RMSNorm eps there)`, `${this.file}:${scope}`);
  }

  /** The node that produces value `output`. */
  producer(output: string): onnxProto.onnx.INodeProto | undefined {
    return this.producers.get(output);
  }

  node(name: string): onnxProto.onnx.INodeProto | undefined {
    return this.nodes.get(name);
  }
}

const count = (dims: number[]): number => dims.reduce((a, b) => a * b, 1);

/** Copies raw little-endian bytes (or float_data) into an aligned Float32Array of `n` values. */
function floatData(file: string, name: string, t: onnxProto.onnx.ITensorProto, n: number): Float32Array {
  const raw = t.rawData;
  if (raw && raw.length > 0) {
    if (raw.length !== n * 4) throw new BundleError(`${file}: initializer "${name}": ${raw.length} bytes of raw data, expected ${n * 4} (${n} float32)`, `${file}:${name}`);
    const out = new Float32Array(n);
    new Uint8Array(out.buffer).set(raw);
    return out;
  }
  const values = t.floatData ?? [];
  if (values.length !== n) throw new BundleError(`${file}: initializer "${name}": ${values.length} float_data values, expected ${n}`, `${file}:${name}`);
  return Float32Array.from(values);
}

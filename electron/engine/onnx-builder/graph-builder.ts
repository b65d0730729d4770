import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Element types the builder writes; the names are the ORT tensor type names. */
export type DType = 'float32' | 'float16' | 'float64' | 'int64' | 'bool';
/** A dimension: a fixed size or a symbolic name such as "past_sequence_length". */
export type Dim = number | string;
export type AttrValue = number | string | number[] | { float: number } | { floats: number[] } | { tensor: Constant };
export interface Constant {
  dtype: DType;
  dims: number[];
  data: ArrayLike<number> | ArrayLike<bigint>;
}

const ONNX_DTYPE: Record<DType, number> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  float16: onnx.TensorProto.DataType.FLOAT16,
  float64: onnx.TensorProto.DataType.DOUBLE,
  int64: onnx.TensorProto.DataType.INT64,
  bool: onnx.TensorProto.DataType.BOOL,
};

/**
 * A small graph-building DSL over onnx-proto. Node and value names are chosen by the caller (or derived
 * from a prefix plus a counter), so the same model built twice yields the same bytes, and the eager and
 * graph exports name corresponding nodes alike ("layers.2.attn.softmax").
 */
export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly inits: onnxProto.onnx.ITensorProto[] = [];
  private readonly inputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly outputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly used = new Set<string>();
  private scope = '';

  constructor(private readonly name: string) {}

  /** Runs `fn` with node names prefixed by `prefix.` (nested scopes join with dots). */
  within<T>(prefix: string, fn: () => T): T {
    const saved = this.scope;
    this.scope = saved ? `${saved}.${prefix}` : prefix;
    try {
      return fn();
    } finally {
      this.scope = saved;
    }
  }

  /** Runs `fn` with no name prefix (for graph-wide constants). */
  atRoot<T>(fn: () => T): T {
    const saved = this.scope;
    this.scope = '';
    try {
      return fn();
    } finally {
      this.scope = saved;
    }
  }

  input(name: string, dtype: DType, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, dtype, dims));
    this.claim(name);
    return name;
  }

  output(value: string, name: string, dtype: DType, dims: Dim[]): void {
    if (value !== name) this.node('Identity', [value], { name });
    this.outputs.push(valueInfo(name, dtype, dims));
  }

  /** An initializer (weight or constant) named `scope.name`. */
  init(name: string, c: Constant): string {
    const full = this.fullName(name);
    this.claim(full);
    this.inits.push(tensorProto(full, c));
    return full;
  }

  /** Adds one node; returns its output names (one per `outputs` count). `name` sets the node/first output. */
  node(op: string, inputs: string[], opts: { name?: string; attrs?: Record<string, AttrValue>; outputs?: number; outputNames?: string[] } = {}): string {
    return this.nodeMulti(op, inputs, opts)[0];
  }

  /** `outputNames` names the node's outputs (e.g. a graph output written by the node itself, with no Identity copy). */
  nodeMulti(
    op: string,
    inputs: string[],
    opts: { name?: string; attrs?: Record<string, AttrValue>; outputs?: number; outputNames?: string[] } = {},
  ): string[] {
    const base = opts.name ?? this.fullName(op.toLowerCase());
    const nodeName = this.unique(base);
    const count = opts.outputNames?.length ?? opts.outputs ?? 1;
    const outs = opts.outputNames
      ? opts.outputNames.map((n) => (this.claim(n), n))
      : Array.from({ length: count }, (_, i) => (i === 0 ? nodeName : this.unique(`${nodeName}:${i}`)));
    const attribute = Object.entries(opts.attrs ?? {}).map(([k, v]) => attributeProto(k, v));
    this.nodes.push({ name: nodeName, opType: op, input: inputs, output: outs, attribute });
    return outs;
  }

  /** Serialises to ModelProto bytes (IR 8, opset 17). */
  toBytes(docString = ''): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'tts-parity-studio',
      producerVersion: '1',
      docString,
      opsetImport: [{ domain: '', version: 17 }],
      graph: { name: this.name, node: this.nodes, initializer: this.inits, input: this.inputs, output: this.outputs },
    });
    return onnx.ModelProto.encode(model).finish();
  }

  /** The name `name` gets inside the current scope. */
  fullName(name: string): string {
    return this.scope ? `${this.scope}.${name}` : name;
  }

  private claim(name: string): void {
    if (this.used.has(name)) throw new Error(`GraphBuilder(${this.name}): duplicate value name "${name}"`);
    this.used.add(name);
  }

  private unique(base: string): string {
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }
}

function valueInfo(name: string, dtype: DType, dims: Dim[]): onnxProto.onnx.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name, type: { tensorType: { elemType: ONNX_DTYPE[dtype], shape: { dim } } } };
}

function tensorProto(name: string, c: Constant): onnxProto.onnx.ITensorProto {
  return { name, dataType: ONNX_DTYPE[c.dtype], dims: c.dims, rawData: rawBytes(c) };
}

/** Little-endian raw bytes of a constant (float16 data are given as uint16 bit patterns). */
function rawBytes(c: Constant): Uint8Array {
  const n = c.data.length;
  const expected = c.dims.reduce((a, b) => a * b, 1);
  if (n !== expected) throw new Error(`constant: ${n} values for dims [${c.dims.join(', ')}]`);
  const size = { float32: 4, float16: 2, float64: 8, int64: 8, bool: 1 }[c.dtype];
  const out = new Uint8Array(n * size);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = c.data[i];
    if (c.dtype === 'float32') view.setFloat32(i * 4, Number(v), true);
    else if (c.dtype === 'float16') view.setUint16(i * 2, Number(v), true);
    else if (c.dtype === 'float64') view.setFloat64(i * 8, Number(v), true);
    else if (c.dtype === 'int64') view.setBigInt64(i * 8, BigInt(v), true);
    else view.setUint8(i, Number(v) ? 1 : 0);
  }
  return out;
}

function attributeProto(name: string, v: AttrValue): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof v === 'number') return { name, type: T.INT, i: v };
  if (typeof v === 'string') return { name, type: T.STRING, s: new TextEncoder().encode(v) };
  if (Array.isArray(v)) return { name, type: T.INTS, ints: v };
  if ('float' in v) return { name, type: T.FLOAT, f: v.float };
  if ('floats' in v) return { name, type: T.FLOATS, floats: v.floats };
  return { name, type: T.TENSOR, t: tensorProto(name, v.tensor) };
}

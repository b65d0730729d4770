import onnxProto from 'onnx-proto';
import { GraphBuilder, type AttrValue } from '../onnx-builder/graph-builder.js';
import { NAMING_KEY, NAMING_SHARED, PRIVATE_PREFIX_KEY } from '../drill/naming-scheme.js';
import type { DecoderMode } from './decoder-graph.js';

const { onnx } = onnxProto;

/**
 * The builder of one decoder export (eager or graph). Node outputs named explicitly (`shared`) carry
 * the same name in both exports only where they are the same quantity of the same shape
 * (`layers.2.attn.q_rope`); every other node is named `<kind>.<scope>.<op>` (`graph.layers.0.attn.matmul_1`),
 * so a counter-derived name can never clash with one of the other export. The model declares the
 * scheme in its metadata (drill/naming-scheme.ts), which is what lets the drill match by name.
 * Initializer names (and so the fixed-seed weights) are not prefixed.
 */
export class ExportGraphBuilder extends GraphBuilder {
  constructor(
    name: string,
    readonly kind: DecoderMode,
  ) {
    super(name);
  }

  override nodeMulti(
    op: string,
    inputs: string[],
    opts: { name?: string; attrs?: Record<string, AttrValue>; outputs?: number; outputNames?: string[] } = {},
  ): string[] {
    return super.nodeMulti(op, inputs, { ...opts, name: opts.name ?? this.privateName(op.toLowerCase()) });
  }

  /** A name inside the current scope that only this export uses. */
  privateName(name: string): string {
    return `${this.kind}.${this.fullName(name)}`;
  }

  /** A name inside the current scope shared by both exports (same quantity, same shape). */
  shared(name: string): string {
    return this.fullName(name);
  }

  override toBytes(docString = ''): Uint8Array {
    const model = onnx.ModelProto.decode(super.toBytes(docString));
    model.metadataProps = [
      onnx.StringStringEntryProto.create({ key: NAMING_KEY, value: NAMING_SHARED }),
      onnx.StringStringEntryProto.create({ key: PRIVATE_PREFIX_KEY, value: `${this.kind}.` }),
    ];
    return onnx.ModelProto.encode(model).finish();
  }
}

/** The export builder behind an Ops (decoder code builds through Ops). */
export function exportBuilder(g: GraphBuilder): ExportGraphBuilder {
  if (!(g instanceof ExportGraphBuilder)) throw new Error('demo decoder: expected an ExportGraphBuilder');
  return g;
}

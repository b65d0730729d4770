import onnxProto from 'onnx-proto';
import { initializerKey } from './initializer-key.js';

const { onnx } = onnxProto;

export interface ModelNode {
  name: string;
  opType: string;
  inputs: string[];
  outputs: string[];
}

export interface PromotedModel {
  /** The model with every node output declared as a graph output. */
  bytes: Uint8Array;
  /** Nodes in the file's order, which ONNX requires to be topological. */
  nodes: ModelNode[];
  /** The graph's own inputs and outputs (initializers excluded). */
  inputs: string[];
  outputs: string[];
  /** Initializer name → its identity across exports (initializer-key.ts). */
  initializers: Map<string, string>;
  /** The model's metadata_props (key → value): where an export declares its naming scheme (naming-scheme.ts). */
  metadata: Map<string, string>;
}

/**
 * Copies a ModelProto and appends every node output that is not yet a graph output to graph.output.
 * The added ValueInfoProtos carry only a name: ONNX Runtime infers their element type and shape
 * (checked on every demo export by the drill tests), so no shape inference is needed here.
 */
export function promoteAllOutputs(model: Uint8Array, file: string): PromotedModel {
  let proto: onnxProto.onnx.ModelProto;
  try {
    proto = onnx.ModelProto.decode(model);
  } catch (error) {
    throw new Error(`drill-down: ${file} is not a readable ONNX ModelProto (${(error as Error).message})`);
  }
  const graph = proto.graph;
  if (!graph) throw new Error(`drill-down: ${file} has no graph`);
  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name ?? '', initializerKey(t)]));
  const inputs = (graph.input ?? []).map((v) => v.name ?? '').filter((n) => n && !initializers.has(n));
  const outputs = (graph.output ?? []).map((v) => v.name ?? '');
  const declared = new Set(outputs);
  const nodes: ModelNode[] = (graph.node ?? []).map((n, i) => ({
    name: n.name || `#${i} ${n.opType ?? '?'}`,
    opType: n.opType ?? '?',
    inputs: [...(n.input ?? [])],
    outputs: [...(n.output ?? [])],
  }));
  graph.output = [...(graph.output ?? [])];
  for (const node of nodes) {
    for (const out of node.outputs) {
      if (!out || declared.has(out)) continue;
      declared.add(out);
      graph.output.push(onnx.ValueInfoProto.create({ name: out }));
    }
  }
  const metadata = new Map((proto.metadataProps ?? []).map((p) => [p.key ?? '', p.value ?? '']));
  return { bytes: onnx.ModelProto.encode(proto).finish(), nodes, inputs, outputs, initializers, metadata };
}

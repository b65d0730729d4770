import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** What the smoke check reads from the ONNX file itself (ONNX Runtime's metadata shows its own inferred shapes instead). */
export interface ModelGraph {
  /** Declared inputs that the graph takes but no node reads (nor is it an output). */
  unread(declared: readonly string[]): string[];
  /** Each graph output's shape as the file declares it: a number, a symbol, or '?' for a dimension without either; undefined when no shape is declared. */
  outputShape(name: string): (number | string)[] | undefined;
}

/** Every value name a node of `graph` or of its subgraphs (If/Loop/Scan bodies read outer names) takes as input. */
function consumedNames(graph: onnxProto.onnx.IGraphProto, into: Set<string>): Set<string> {
  for (const node of graph.node ?? []) {
    for (const name of node.input ?? []) into.add(name);
    for (const attr of node.attribute ?? []) {
      if (attr.g) consumedNames(attr.g, into);
      for (const g of attr.graphs ?? []) consumedNames(g, into);
    }
  }
  for (const out of graph.output ?? []) if (out.name) into.add(out.name);
  return into;
}

const dimOf = (d: onnxProto.onnx.TensorShapeProto.IDimension): number | string =>
  d.dimValue !== undefined && d.dimValue !== null ? Number(d.dimValue) : d.dimParam ? d.dimParam : '?';

export function readModelGraph(model: Uint8Array): ModelGraph {
  const graph = onnx.ModelProto.decode(model).graph ?? {};
  const inputs = new Set((graph.input ?? []).map((v) => v.name ?? ''));
  const consumed = consumedNames(graph, new Set());
  return {
    unread: (declared) => declared.filter((name) => inputs.has(name) && !consumed.has(name)),
    outputShape: (name) => {
      const shape = graph.output?.find((o) => o.name === name)?.type?.tensorType?.shape;
      return shape ? (shape.dim ?? []).map(dimOf) : undefined;
    },
  };
}

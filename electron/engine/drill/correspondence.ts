import { isSharedName } from './naming-scheme.js';
import type { ModelNode, PromotedModel } from './promote-outputs.js';

/**
 * The node outputs of model A that have a counterpart in model B, for two exports of the same network
 * (docs/drill.md). A node of A corresponds when B has a node producing an output of the same name,
 * with the same op type, whose inputs are, position by position, the same values: the same graph
 * input, the same initializer (a weight by name, a small constant by value), or the output of a
 * node that already corresponds. A Cast stands for its input (an fp16 export casts where the fp32
 * one does not). Two names alike are not enough: a counter-derived name ("attn.matmul_3") can mean
 * different things in two graphs, and comparing those would report a difference that is not there.
 * Unless both exports declare the shared naming scheme (naming-scheme.ts): then an output whose
 * name is shared (not under either export's private prefix) and produced in both corresponds by name
 * alone, whatever ops compute it (the walk still compares it only when the shapes agree).
 */
export function correspondingOutputs(a: PromotedModel, b: PromotedModel): Set<string> {
  const producerB = producers(b.nodes);
  const castA = casts(a.nodes);
  const castB = casts(b.nodes);
  const matched = new Set<string>();
  const identity = (m: PromotedModel, cast: Map<string, string>, side: string, matchedHere: (x: string) => boolean) => {
    const of = (x: string): string => {
      const through = cast.get(x);
      if (through !== undefined) return of(through);
      if (m.inputs.includes(x)) return `input ${x}`;
      const init = m.initializers.get(x);
      if (init !== undefined) return init;
      return matchedHere(x) ? `node ${x}` : `${side}-only ${x}`;
    };
    return of;
  };
  const idA = identity(a, castA, 'A', (x) => matched.has(x));
  const idB = identity(b, castB, 'B', (x) => matched.has(x));
  for (const n of a.nodes) {
    const first = n.outputs.find((o) => o);
    const m = first === undefined ? undefined : producerB.get(first);
    if (!m || m.opType !== n.opType || m.inputs.length !== n.inputs.length) continue;
    if (!n.inputs.every((x, i) => (x === '' && m.inputs[i] === '') || (x !== '' && idA(x) === idB(m.inputs[i])))) continue;
    n.outputs.forEach((out, j) => {
      if (out && out === m.outputs[j]) matched.add(out);
    });
  }
  for (const n of a.nodes) {
    for (const out of n.outputs) {
      if (out && producerB.has(out) && isSharedName(a.metadata, out) && isSharedName(b.metadata, out)) matched.add(out);
    }
  }
  return matched;
}

function producers(nodes: ModelNode[]): Map<string, ModelNode> {
  const map = new Map<string, ModelNode>();
  for (const n of nodes) for (const out of n.outputs) if (out) map.set(out, n);
  return map;
}

/** Cast output → Cast input. */
function casts(nodes: ModelNode[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const n of nodes) if (n.opType === 'Cast' && n.outputs[0] && n.inputs[0]) map.set(n.outputs[0], n.inputs[0]);
  return map;
}

import type { PromotedModel } from './promote-outputs.js';

/**
 * The node outputs of model A that have a counterpart in model B, for two different exports of the
 * same network (docs/drill.md). A node of A corresponds when B has a node producing an output of the
 * same name, with the same op type, whose inputs are, position by position, the same names, each a
 * graph input of both, an initializer of both, or an output that already corresponds. Two names
 * alike are not enough: a counter-derived name ("attn.matmul_3") can mean different things in two
 * graphs, and comparing those would report a difference that is not there.
 */
export function correspondingOutputs(a: PromotedModel, b: PromotedModel): Set<string> {
  const producer = new Map<string, { opType: string; inputs: string[]; outputs: string[] }>();
  for (const n of b.nodes) for (const out of n.outputs) if (out) producer.set(out, n);
  const shared = (xs: string[], ys: string[]): string[] => xs.filter((x) => ys.includes(x));
  const ok = new Set<string>([...shared(a.inputs, b.inputs), ...shared(a.initializers, b.initializers)]);
  const matched = new Set<string>();
  for (const n of a.nodes) {
    const first = n.outputs.find((o) => o);
    const m = first === undefined ? undefined : producer.get(first);
    if (!m || m.opType !== n.opType || m.inputs.length !== n.inputs.length) continue;
    if (!n.inputs.every((x, i) => x === m.inputs[i] && (x === '' || ok.has(x)))) continue;
    n.outputs.forEach((out, j) => {
      if (out && out === m.outputs[j]) {
        ok.add(out);
        matched.add(out);
      }
    });
  }
  return matched;
}

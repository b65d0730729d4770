import { BundleError } from '../../common/errors.js';
import type { FoundTensor } from '../ort-session.js';
import { decoderField, dimSource } from './dim-source.js';
import type { NetworkExport, TensorSpec } from './manifest.js';
import { BATCH_DIM, formatShape, type Contract } from './tensor-contract.js';

type Shape = readonly (number | string)[];

const describe = (t: { dtype: string; shape: Shape }): string => `${t.dtype} ${formatShape(t.shape)}`;
const quoted = (names: string[], max = 16): string =>
  names.length <= max ? names.map((n) => `"${n}"`).join(', ') : `${names.slice(0, max).map((n) => `"${n}"`).join(', ')} … (${names.length - max} more)`;

/** An export whose manifest shapes have a symbolic dimension is run with varying sizes (eager, embed, vocoder). */
const isDynamic = (exp: NetworkExport): boolean => exp.inputs.some((t) => t.shape.some((d) => typeof d === 'string'));

/**
 * A mismatch between an expected and a found shape: rank first, then each dimension. In a dynamic
 * export the batch dimension (0, always fed as 1) may be symbolic, as HF Optimum writes "batch_size";
 * everywhere else a dimension expected fixed must be that number, and one expected symbolic (the
 * engine feeds varying sizes there) must not be fixed.
 */
function shapeProblem(expected: Shape, found: Shape, where: { label: string; tensor: string; dynamic: boolean; source: string; unpinnedOutput?: boolean }): string | undefined {
  if (found.length === 0) return undefined; // the model declares no shape: nothing to check
  if (expected.length !== found.length) return `rank ${expected.length} expected, rank ${found.length} found`;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const f = found[i];
    const field = dimSource(where.label, where.tensor, i);
    const why = field ? ` (bundle.json ${field})` : '';
    if (typeof e === 'number' && typeof f === 'number' && e !== f) return `dimension ${i}: expected ${e}${why}, found ${f}`;
    if (typeof e === 'number' && typeof f === 'string' && !(where.dynamic && i === 0 && e === 1)) {
      const hint = where.dynamic
        ? ''
        : where.unpinnedOutput
          ? ': the model\'s inputs are all fixed, but this graph export left the output\'s size symbolic; fix: pin it (torch.onnx.export: no dynamic_axes for a graph export\'s outputs; or write the dims into the model\'s graph outputs)'
          : ': a graph export has static shapes only (is this a dynamic-shape eager export?)';
      return `dimension ${i}: expected fixed ${e}${why}, found symbolic "${f}"${hint}`;
    }
    // A batched eager export's batch dimension must stay symbolic: the engine feeds N rows there.
    if (typeof e === 'string' && typeof f === 'number' && !(i === 0 && f === 1 && e !== BATCH_DIM)) {
      return `dimension ${i}: expected symbolic ("${e}": the engine feeds varying sizes here), found fixed ${f} in ${where.source} (is this a static-shape graph export declared as eager?)`;
    }
  }
  return undefined;
}

const allFixed = (tensors: FoundTensor[]): boolean => tensors.every((t) => t.shape.every((d) => typeof d === 'number'));

/**
 * A declared input missing from a model whose every input is declared: the exporter dropped it
 * (torch.onnx.export leaves out an input the forward never reads).
 */
function droppedInputHint(kind: 'inputs' | 'outputs', exp: NetworkExport, have: FoundTensor[]): string {
  if (kind !== 'inputs' || !have.every((t) => exp.inputs.some((d) => d.name === t.name))) return '';
  return '; fix: the exporter dropped it because the exported forward never reads it (torch.onnx.export does so) — use it in the forward (mask with attention_mask, rotate by position_ids, pick the head by generation_step) and re-export';
}

/** "found float16 where float32 is expected" is the usual fp16 export under an fp32 key (or the reverse). */
function dtypeHint(side: string, expected: string, found: string): string {
  if (expected === 'float32' && found === 'float16') return ': this is a float16 export, declare it under a "-fp16" key';
  if (expected === 'float16' && found === 'float32') return ': this is a float32 export, declare it under a "-fp32" key';
  return side === 'input' ? ` (the engine feeds ${expected} here)` : ` (the engine reads ${expected} here)`;
}

/** "past_key_values.0.key" for one layer, "past_key_values.0.key … past_key_values.2.key" for three. */
const kvRange = (layers: number, suffix = ''): string => (layers === 1 ? `past_key_values.0${suffix}` : `past_key_values.0${suffix} … past_key_values.${layers - 1}${suffix}`);

/** The model's `past_key_values.{i}.key` layer count must be the manifest's `layers`. */
function checkLayerCount(label: string, exp: NetworkExport, found: FoundTensor[], modelPath: string): void {
  const field = decoderField(label);
  if (!field) return;
  const count = (names: string[]): number => names.filter((n) => /^past_key_values\.\d+\.key$/.test(n)).length;
  const declared = count(exp.inputs.map((t) => t.name));
  const inModel = count(found.map((t) => t.name));
  if (inModel === declared || inModel === 0) return; // 0: not a KV-cache export at all; the name check says which input is missing
  throw new BundleError(
    `${modelPath}: the model has past_key_values for ${inModel} layer${inModel === 1 ? '' : 's'} (${kvRange(inModel, '.key')}), but bundle.json ${field}.layers = ${declared} (${label})`,
    `${modelPath}:past_key_values`,
  );
}

/**
 * Every tensor the manifest declares for `exp` must be in the ONNX session with the same dtype and
 * rank (and the same size wherever both fix it); every session input must be declared.
 */
export function checkExportAgainstSession(label: string, exp: NetworkExport, found: { inputs: FoundTensor[]; outputs: FoundTensor[] }, modelPath = exp.file): void {
  checkLayerCount(label, exp, found.inputs, modelPath);
  const dynamic = isDynamic(exp);
  for (const kind of ['inputs', 'outputs'] as const) {
    const side = kind === 'inputs' ? 'input' : 'output';
    const have = found[kind];
    for (const d of exp[kind]) {
      const f = have.find((t) => t.name === d.name);
      if (!f) {
        throw new BundleError(
          `${modelPath}: ${side} "${d.name}" (${label}) is declared in bundle.json as ${describe(d)} but the model has no such ${side}; found: ${quoted(have.map((t) => t.name))}${droppedInputHint(kind, exp, have)}`,
          `${modelPath}:${d.name}`,
        );
      }
      if (f.dtype !== d.dtype) {
        throw new BundleError(`${modelPath}: ${side} "${d.name}" (${label}): expected ${describe(d)} (bundle.json), found ${describe(f)} in the model${dtypeHint(side, d.dtype, f.dtype)}`, `${modelPath}:${d.name}`);
      }
      const problem = shapeProblem(d.shape, f.shape, { label, tensor: d.name, dynamic, source: 'the model', unpinnedOutput: kind === 'outputs' && !dynamic && allFixed(found.inputs) });
      if (problem) {
        throw new BundleError(`${modelPath}: ${side} "${d.name}" (${label}): expected ${describe(d)} (bundle.json), found ${describe(f)} in the model: ${problem}`, `${modelPath}:${d.name}`);
      }
    }
    if (kind === 'inputs') {
      const undeclared = have.find((t) => !exp.inputs.some((d) => d.name === t.name));
      if (undeclared) {
        throw new BundleError(
          `${modelPath}: input "${undeclared.name}" (${label}) of the model, ${describe(undeclared)}, is required by the model but the engine never feeds it (it feeds only ${quoted(exp.inputs.map((t) => t.name))}); re-export without it`,
          `${modelPath}:${undeclared.name}`,
        );
      }
    }
  }
}

/** Where an export's declared tensors sit in bundle.json: `talker.exports["eager-fp32"].inputs`, `embed.export.outputs`. */
function tensorListPath(label: string, kind: 'inputs' | 'outputs'): string {
  const [network, key, batchKey] = label.split(' ');
  if (key === undefined) return `${network}.export.${kind}`;
  const field = network === 'code-predictor' ? 'codePredictor' : network;
  if (key === 'batch') return `batch.${field}["${batchKey}"].${kind}`;
  return `${field}.exports["${key}"].${kind}`;
}

/**
 * The manifest must declare what the format requires for this network (names, dtypes, shapes), and
 * no input beyond it: the engine feeds exactly the contract's inputs.
 */
export function checkExportAgainstContract(label: string, exp: NetworkExport, contract: Contract, manifestPath = 'bundle.json'): void {
  const dynamic = contract.inputs.some((t) => t.shape.some((d) => typeof d === 'string'));
  for (const kind of ['inputs', 'outputs'] as const) {
    const side = kind === 'inputs' ? 'input' : 'output';
    for (const need of contract[kind]) {
      const d: TensorSpec | undefined = exp[kind].find((t) => t.name === need.name);
      if (!d) {
        throw new BundleError(
          `${manifestPath}: ${label} (${exp.file}) must declare ${side} "${need.name}" as ${describe(need)}; declared: ${exp[kind].map((t) => `"${t.name}"`).join(', ')}`,
          `${manifestPath}:${label}`,
        );
      }
      const list = tensorListPath(label, kind);
      const problem = d.dtype !== need.dtype ? `dtype ${need.dtype} expected, ${d.dtype} found` : shapeProblem(need.shape, d.shape, { label, tensor: need.name, dynamic, source: `bundle.json ${list}` });
      if (problem) {
        throw new BundleError(
          `${manifestPath}: ${label} (${exp.file}) ${side} "${need.name}": expected ${describe(need)} (required by bundle.json's sizes and the export's key), found ${describe(d)} in bundle.json's own tensor list ${list}: ${problem}`,
          `${manifestPath}:${label}`,
        );
      }
    }
  }
  const extra = exp.inputs.find((t) => !contract.inputs.some((c) => c.name === t.name));
  if (extra) {
    const field = decoderField(label);
    const layers = contract.inputs.filter((t) => /^past_key_values\.\d+\.key$/.test(t.name)).length;
    const why = field && extra.name.startsWith('past_key_values.')
      ? `bundle.json ${field}.layers = ${layers}, so the engine feeds ${kvRange(layers)} only`
      : `the engine never feeds it (it feeds only ${quoted(contract.inputs.map((t) => t.name))}); re-export without it`;
    throw new BundleError(`${manifestPath}: ${label} (${exp.file}) declares input "${extra.name}" (${describe(extra)}), but ${why}`, `${manifestPath}:${label}`);
  }
}

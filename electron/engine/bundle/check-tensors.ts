import { BundleError } from '../../common/errors.js';
import type { FoundTensor } from '../ort-session.js';
import type { NetworkExport, TensorSpec } from './manifest.js';
import { formatShape, type Contract } from './tensor-contract.js';

const describe = (t: { dtype: string; shape: readonly (number | string)[] }): string => `${t.dtype} ${formatShape(t.shape)}`;

/** A mismatch between two shapes: rank first, then any dimension fixed on both sides. */
function shapeProblem(expected: readonly (number | string)[], found: readonly (number | string)[]): string | undefined {
  if (found.length === 0) return undefined; // the model declares no shape: nothing to check
  if (expected.length !== found.length) return `rank ${expected.length} expected, rank ${found.length} found`;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const f = found[i];
    if (typeof e === 'number' && typeof f === 'number' && e !== f) return `dimension ${i}: expected ${e}, found ${f}`;
    if (typeof e === 'number' && typeof f === 'string') return `dimension ${i}: expected fixed ${e}, found symbolic "${f}"`;
  }
  return undefined;
}

/**
 * Every tensor the manifest declares for `exp` must be in the ONNX session with the same dtype and
 * rank (and the same size wherever both fix it); every session input must be declared.
 */
export function checkExportAgainstSession(label: string, exp: NetworkExport, found: { inputs: FoundTensor[]; outputs: FoundTensor[] }, modelPath = exp.file): void {
  for (const kind of ['inputs', 'outputs'] as const) {
    const side = kind === 'inputs' ? 'input' : 'output';
    const have = found[kind];
    for (const d of exp[kind]) {
      const f = have.find((t) => t.name === d.name);
      if (!f) {
        throw new BundleError(
          `${modelPath}: ${side} "${d.name}" (${label}) is declared in bundle.json as ${describe(d)} but the model has no such ${side}; found: ${have.map((t) => `"${t.name}"`).join(', ')}`,
          `${modelPath}:${d.name}`,
        );
      }
      if (f.dtype !== d.dtype) {
        throw new BundleError(`${modelPath}: ${side} "${d.name}" (${label}): expected ${describe(d)} (bundle.json), found ${describe(f)} in the model`, `${modelPath}:${d.name}`);
      }
      const problem = shapeProblem(d.shape, f.shape);
      if (problem) {
        throw new BundleError(`${modelPath}: ${side} "${d.name}" (${label}): expected ${describe(d)} (bundle.json), found ${describe(f)} in the model: ${problem}`, `${modelPath}:${d.name}`);
      }
    }
    if (kind === 'inputs') {
      const undeclared = have.find((t) => !exp.inputs.some((d) => d.name === t.name));
      if (undeclared) {
        throw new BundleError(`${modelPath}: input "${undeclared.name}" (${label}) of the model, ${describe(undeclared)}, is not declared in bundle.json`, `${modelPath}:${undeclared.name}`);
      }
    }
  }
}

/** The manifest must declare what the format requires for this network (names, dtypes, shapes). */
export function checkExportAgainstContract(label: string, exp: NetworkExport, contract: Contract, manifestPath = 'bundle.json'): void {
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
      const problem = d.dtype !== need.dtype ? `dtype ${need.dtype} expected, ${d.dtype} found` : shapeProblem(need.shape, d.shape);
      if (problem) {
        throw new BundleError(`${manifestPath}: ${label} (${exp.file}) ${side} "${need.name}": expected ${describe(need)}, found ${describe(d)}: ${problem}`, `${manifestPath}:${label}`);
      }
    }
  }
}

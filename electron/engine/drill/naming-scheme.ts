/**
 * The naming scheme an export may declare in its ONNX metadata_props (docs/drill.md): with
 * `tts-parity.node-names` = `shared/1`, a node output name that does not start with the export's
 * private prefix (`tts-parity.private-prefix`, e.g. `graph.`) names the same quantity in every export
 * of the bundle that declares the scheme. Two such exports correspond by output name alone.
 */
export const NAMING_KEY = 'tts-parity.node-names';
export const NAMING_SHARED = 'shared/1';
export const PRIVATE_PREFIX_KEY = 'tts-parity.private-prefix';

/** Is `name` a shared name under `metadata`'s scheme? False when the model declares none. */
export function isSharedName(metadata: Map<string, string>, name: string): boolean {
  if (metadata.get(NAMING_KEY) !== NAMING_SHARED) return false;
  const prefix = metadata.get(PRIVATE_PREFIX_KEY);
  return !prefix || !name.startsWith(prefix);
}

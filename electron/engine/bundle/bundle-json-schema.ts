import { z } from 'zod';
import { BundleManifest } from './manifest.js';

/**
 * The JSON Schema of `bundle.json` (tts-parity-bundle/1), generated from the zod schema (the one
 * source of truth) for writers in other languages, e.g. the Python exporter:
 * python/tts_parity/schema/bundle.schema.json, rewritten by `npm run generate:schemas` and checked for
 * drift by test/unit/engine/bundle/bundle-json-schema.test.ts. It says each field's type and range;
 * the rules across fields (docs/bundle-format.md: specialIds when vocab > V+1, the template rules,
 * maxPositions, "eager-fp32" required, …) and the tensor lists' contents are checked by the loader only.
 */
export function bundleJsonSchemas(): Record<string, object> {
  const json = z.toJSONSchema(BundleManifest, { io: 'input', unrepresentable: 'throw' });
  return { 'bundle.schema.json': { ...json, title: 'tts-parity-bundle/1 bundle.json (field types; the loader checks the rules across fields)' } };
}

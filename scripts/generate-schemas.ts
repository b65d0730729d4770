// `npm run generate:schemas`: writes the JSON Schemas generated from the zod schemas into
// python/tts_parity/schema/ (the Python writer validates against them). Run it after changing a trace
// schema in electron/common/trace/ or bundle.json's (electron/engine/bundle/manifest.ts); the drift tests
// (test/unit/common/trace/trace-json-schema.test.ts, test/unit/engine/bundle/bundle-json-schema.test.ts) fail until you do.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFileText, traceJsonSchemas } from '../electron/common/trace/trace-json-schema.js';
import { bundleJsonSchemas } from '../electron/engine/bundle/bundle-json-schema.js';

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'python', 'tts_parity', 'schema');

mkdirSync(SCHEMA_DIR, { recursive: true });
for (const [name, schema] of Object.entries({ ...traceJsonSchemas(), ...bundleJsonSchemas() })) {
  writeFileSync(join(SCHEMA_DIR, name), schemaFileText(schema));
  console.log(`wrote ${join('python', 'tts_parity', 'schema', name)}`);
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaFileText, traceJsonSchemas } from '../../../../electron/common/trace/trace-json-schema.js';

const SCHEMA_DIR = join(__dirname, '..', '..', '..', '..', 'python', 'tts_parity', 'schema');
const REGENERATE = 'regenerate them with `npm run generate:schemas` and commit python/tts_parity/schema/';

describe('trace JSON Schemas generated from the zod schemas', () => {
  const generated = traceJsonSchemas();

  it('are committed byte for byte under python/tts_parity/schema/ (drift check)', () => {
    const committed = readdirSync(SCHEMA_DIR).filter((f) => f.startsWith('trace-') && f.endsWith('.schema.json')).sort();
    expect(committed, `trace schema files differ from the generated set: ${REGENERATE}`).toEqual(Object.keys(generated).sort());
    for (const [name, schema] of Object.entries(generated)) {
      const text = readFileSync(join(SCHEMA_DIR, name), 'utf8');
      expect(text, `python/tts_parity/schema/${name} is stale: ${REGENERATE}`).toBe(schemaFileText(schema));
    }
  });

  it('say what a file holds: a number, or a non-finite one as "NaN", "Infinity", "-Infinity"', () => {
    const step = generated['trace-step.schema.json'] as { $defs: Record<string, unknown>; required: string[] };
    expect(step.$defs.JsonNumber).toEqual({ anyOf: [{ type: 'number' }, { enum: ['NaN', 'Infinity', '-Infinity'] }] });
    // Partial traces: only the step number is required, and every logit statistic is optional.
    expect(step.required).toEqual(['step']);
    expect((step.$defs.LogitStats as { required?: string[] }).required).toBeUndefined();
    expect(Object.keys(step.$defs).sort()).toEqual(['HiddenStats', 'JsonNumber', 'LogitStats', 'StageCounts']);
    const header = generated['trace-header.schema.json'] as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(header.properties.schema).toEqual({ type: 'string', const: 'tts-parity-trace/1' });
    expect(header.properties.modules).toEqual({ type: 'string', minLength: 1, maxLength: 500 });
    expect(header.additionalProperties).toEqual({});
  });
});

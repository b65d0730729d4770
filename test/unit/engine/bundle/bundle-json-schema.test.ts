import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaFileText } from '../../../../electron/common/trace/trace-json-schema.js';
import { bundleJsonSchemas } from '../../../../electron/engine/bundle/bundle-json-schema.js';

const SCHEMA_DIR = join(__dirname, '..', '..', '..', '..', 'python', 'tts_parity', 'schema');

describe('bundle.json JSON Schema generated from the zod schema', () => {
  it('is committed byte for byte as python/tts_parity/schema/bundle.schema.json (drift check)', () => {
    const generated = bundleJsonSchemas();
    expect(Object.keys(generated)).toEqual(['bundle.schema.json']);
    const text = readFileSync(join(SCHEMA_DIR, 'bundle.schema.json'), 'utf8');
    expect(text, 'python/tts_parity/schema/bundle.schema.json is stale: regenerate it with `npm run generate:schemas` and commit it').toBe(schemaFileText(generated['bundle.schema.json']));
  });

  it('holds the grown fields, optional, and refuses unknown keys as the loader does', () => {
    const s = bundleJsonSchemas()['bundle.schema.json'] as {
      required: string[];
      additionalProperties: unknown;
      properties: { talker: { required: string[]; properties: Record<string, unknown> }; embed: { required: string[] } };
    };
    expect(s.required).not.toContain('codebookSizes');
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties.talker.properties)).toEqual(expect.arrayContaining(['specialIds', 'prefill', 'textConditioning']));
    expect(s.properties.talker.required).not.toContain('specialIds');
    expect(s.properties.embed.required).toEqual(['codecRowOffset', 'codecRowsPerCodebook']);
  });
});

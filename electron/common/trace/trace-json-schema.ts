import { z } from 'zod';
import { JsonNumber } from '../report/json-number.js';
import { MAX_JSON_LINE } from '../text/bounded-lines.js';
import { NO_STEP_DATA } from './read-trace.js';
import { HiddenStats, StageCounts, TraceLogitStats, TraceStep } from './step-record.js';
import { TraceHeader } from './trace-format.js';

/** A JSON number, or a non-finite one written as a string (JsonNumber as it stands in a file). */
const JSON_NUMBER_SCHEMA = { anyOf: [{ type: 'number' }, { enum: ['NaN', 'Infinity', '-Infinity'] }] };

/** Shared parts named in `$defs` (otherwise each use is written out in full). */
const named = z.registry<{ id: string }>();
named.add(JsonNumber, { id: 'JsonNumber' });
named.add(TraceLogitStats, { id: 'LogitStats' });
named.add(StageCounts, { id: 'StageCounts' });
named.add(HiddenStats, { id: 'HiddenStats' });

/**
 * The JSON Schemas of `tts-parity-trace/1`, generated from the zod schemas (the one source of truth) for
 * writers in other languages: python/tts_parity/schema/<name>. `npm run generate:schemas` rewrites the
 * files; test/unit/common/trace/trace-json-schema.test.ts fails when they drift from these.
 * Describes the file (zod's input side): non-finite numbers as the strings "NaN", "Infinity", "-Infinity".
 * Rules across lines (steps 1, 2, 3…; q codes; q−1 code-predictor entries; codes below codebookSize) are
 * not expressed here: each writer checks them as readTrace does. The reader's per-line rules beyond zod
 * are: "at least one of logits, codes, codePredictorLogits" (hasData in read-trace.ts) as an `anyOf`, with
 * the reader's refusal in `x-parity-anyOf-message`, and the longest line in `x-parity-max-line-characters`
 * (MAX_JSON_LINE), so a writer runs the reader's rules from this file rather than a copy of them.
 */
export function traceJsonSchemas(): Record<string, object> {
  return {
    'trace-header.schema.json': { ...toJsonSchema(TraceHeader, 'tts-parity-trace/1 header (line 1)'), ...LINE_RULE },
    'trace-step.schema.json': { ...toJsonSchema(TraceStep, 'tts-parity-trace/1 step (lines 2…)'), ...STEP_DATA_RULE, ...LINE_RULE },
  };
}

/** hasData (read-trace.ts) as JSON Schema: a non-empty logits object, codes, or a non-empty code-predictor entry. */
const STEP_DATA_RULE = {
  anyOf: [
    { required: ['logits'], properties: { logits: { minProperties: 1 } } },
    { required: ['codes'] },
    { required: ['codePredictorLogits'], properties: { codePredictorLogits: { contains: { minProperties: 1 } } } },
  ],
  'x-parity-anyOf-message': NO_STEP_DATA,
};
const LINE_RULE = { 'x-parity-max-line-characters': MAX_JSON_LINE };

/** The file text of a schema: 2-space JSON and a final newline. */
export function schemaFileText(schema: object): string {
  return JSON.stringify(schema, null, 2) + '\n';
}

function toJsonSchema(schema: z.ZodType, title: string): object {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    metadata: named,
    // JsonNumber's z.custom member (in-memory non-finite numbers) has no JSON Schema: the override below
    // replaces the whole union, and any other unrepresentable schema is caught by assertRepresented.
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema === JsonNumber) {
        for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
        Object.assign(ctx.jsonSchema, JSON_NUMBER_SCHEMA);
      }
    },
  });
  assertRepresented(json, '#');
  return { ...json, title };
}

/**
 * Fails on an empty schema `{}` (zod's stand-in for something it could not represent), naming its path;
 * `additionalProperties: {}` is meant (a .loose() object keeps unknown fields).
 */
function assertRepresented(node: unknown, path: string): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => assertRepresented(item, `${path}/${i}`));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (Object.keys(node).length === 0) throw new Error(`trace JSON Schema: ${path} has no JSON Schema equivalent`);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, child] of Object.entries(value)) assertRepresented(child, `${path}/properties/${name}`);
    } else if (key !== 'additionalProperties' && typeof value === 'object') assertRepresented(value, `${path}/${key}`);
  }
}

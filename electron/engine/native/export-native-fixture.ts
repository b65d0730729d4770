import { parseProfile } from '../../common/profile/parse-profile.js';
import { GREEDY, type SamplingParams } from '../../common/sampling/types.js';
import { loadBundle, type LoadedBundle } from '../bundle/load-bundle.js';
import type { NetworkExport } from '../bundle/manifest.js';
import { makePlan } from '../plan.js';
import { EmbeddingTable } from '../run/embedding-table.js';
import { RunClock } from '../run/run-clock.js';
import { SessionPool } from '../run/session-pool.js';
import type { DecoderRunner } from '../run/decoder-runners.js';
import { synthesizeWith } from '../synthesize.js';
import { tokenizeText } from '../text-input.js';
import { readNativeModel, type NativeConfig } from './native-weights.js';

/** The fixed prompt of the fixture: 13 characters -> 12 frames of the demo bundle. */
const FIXTURE_TEXT = 'Parity check.';

/** The sampled prompt of the fixture (same text): settings that exercise every stage of the sampler. */
const FIXTURE_SAMPLING: SamplingParams = { mode: 'sample', temperature: 0.9, topK: 40, topP: 0.95, repetitionPenalty: 1.1 };
const FIXTURE_SEED = 7;

/** Flattens the config to `key value` lines (talker.layers ...), the form native/test/check.cu reads. */
function configLines(c: NativeConfig): string {
  const lines: string[] = [];
  const walk = (prefix: string, o: object): void => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'object') walk(`${prefix}${k}.`, v as object);
      else lines.push(`${prefix}${k} ${v}`);
    }
  };
  walk('', c);
  return lines.join('\n') + '\n';
}

interface Reference {
  codes: Int32Array;
  /** Per step: talker logits, talker hidden, code-predictor logits (Q-1 rows), concatenated. */
  steps: Float32Array[];
  audio: Float32Array;
}

/** ORT CPU run of `profileText`, recording the raw outputs every step. */
async function reference(bundle: LoadedBundle, pool: SessionPool, table: EmbeddingTable, profileText: string, sampling: SamplingParams, seed: number): Promise<Reference> {
  const profile = parseProfile(profileText);
  const plan = await makePlan(bundle, pool, table, profile);
  const rows: Float32Array[][] = [];
  const record = (inner: DecoderRunner, talker: boolean): DecoderRunner => ({
    reset: () => inner.reset(),
    forward: async (embeds, n, extra) => {
      const out = await inner.forward(embeds, n, extra);
      if (talker) rows.push([out.logits, out.hidden as Float32Array]);
      else rows[rows.length - 1].push(out.logits);
      return out;
    },
  });
  const result = await synthesizeWith({ ...plan, talker: record(plan.talker, true), codePredictor: record(plan.codePredictor as DecoderRunner, false) }, { text: FIXTURE_TEXT, profile, seed, sampling });
  return { codes: result.codes, steps: rows.map(concatFloat32), audio: result.audio };
}

function concatFloat32(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The parts' float32 values, concatenated, as raw bytes (the machine's byte order: little-endian on x64/arm64). */
const f32Bytes = (parts: Float32Array[]): Uint8Array => new Uint8Array(concatFloat32(parts).buffer);

/**
 * The standalone check's fixture, as files by name (electron/cli/export-native-fixture.ts writes them): weights.bin + weights.txt (name, offset in floats, count,
 * dims), config.txt, prompt.txt, and ORT CPU references (eager) of the fixed prompt: greedy
 * (reference.bin / reference-codes.txt), greedy under fault stale-feedback@N (reference-stale.*), and
 * sampled with prompt.txt's `sampling seed temperature topK topP repetitionPenalty` (reference-sampled.*).
 */
export async function nativeFixtureFiles(bundleDir: string, staleStep = 2): Promise<Map<string, Uint8Array | string>> {
  const bundle = await loadBundle(bundleDir);
  const model = readNativeModel(bundle);
  const names = Object.keys(model.weights).sort();
  let offset = 0;
  const index = names.map((name) => {
    const t = model.weights[name];
    const line = `${name} ${offset} ${t.data.length} ${t.dims.join(' ')}`.trimEnd();
    offset += t.data.length;
    return line;
  });
  const files: [string, Uint8Array | string][] = [
    ['weights.bin', f32Bytes(names.map((n) => model.weights[n].data))],
    ['weights.txt', index.join('\n') + '\n'],
    ['config.txt', configLines(model.config)],
  ];
  const { ids, frames } = tokenizeText(FIXTURE_TEXT, bundle.manifest, bundle.tokenizer);
  const f = FIXTURE_SAMPLING;
  const sampling = `sampling ${FIXTURE_SEED} ${f.temperature} ${f.topK} ${f.topP} ${f.repetitionPenalty}`;
  files.push(['prompt.txt', `text ${FIXTURE_TEXT}\nframes ${frames}\nstale_step ${staleStep}\nids ${ids.join(' ')}\n${sampling}\n`]);

  const pool = new SessionPool(bundle);
  try {
    const embed = await pool.get('embed', bundle.manifest.embed.export as NetworkExport, false, 'cpu'); // readNativeModel refused a bundle without it
    const table = await EmbeddingTable.read(embed.session, bundle.manifest, new RunClock());
    const runs: [string, string, SamplingParams, number][] = [
      ['', 'eager', GREEDY, 0],
      ['-stale', `eager,fault=stale-feedback@${staleStep}`, GREEDY, 0],
      ['-sampled', 'eager', FIXTURE_SAMPLING, FIXTURE_SEED],
    ];
    for (const [suffix, profile, samplingParams, seed] of runs) {
      const ref = await reference(bundle, pool, table, profile, samplingParams, seed);
      const q = bundle.manifest.codebooks;
      const codeLines = Array.from({ length: frames }, (_, f) => `${f + 1} ${Array.from(ref.codes.subarray(f * q, (f + 1) * q)).join(' ')}`);
      files.push([`reference${suffix}.bin`, f32Bytes([...ref.steps, ref.audio])]);
      files.push([`reference${suffix}-codes.txt`, codeLines.join('\n') + '\n']);
    }
  } finally {
    await pool.close();
  }
  return new Map(files);
}

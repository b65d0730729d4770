import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { BundleError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { kindOf, readChecked, readTextChecked, type SizeLimit } from '../fs/read-checked.js';
import { checkExportAgainstContract } from './check-tensors.js';
import { jsonSyntaxMessage } from './json-syntax.js';
import { openTableFile, type TableFile } from './embed-table-file.js';
import { checkBatchSection, parseBatchKey } from './batch-support.js';
import { BundleManifest, codebookSizeOf, codePredictorInputHidden, codePredictorOf, maxTextPositions, type NetworkExport } from './manifest.js';
import { checkTalkerText, maxPrefillPositions } from './prefill-template.js';
import { loadTextTokenizer, type TextTokenizer } from './text-tokenizer.js';
import { checkParallelCodebooks, maxDelay } from './parallel-codebooks.js';
import { BATCH_DIM, codePredictorContract, embedContract, encoderContract, talkerContract, vocoderContract, type Contract, type TalkerExtras } from './tensor-contract.js';

export interface LoadedBundle {
  dir: string;
  manifest: BundleManifest;
  /** sha256 over bundle.json, every model file (name and bytes, in name order), then a tokenizer.json if any; hex. */
  hash: string;
  /** Model bytes by file name. */
  files: Map<string, Uint8Array>;
  /** Every export with its label ("talker eager-fp32") and the contract it must meet. */
  exports: { label: string; exp: NetworkExport }[];
  /** The text tokenizer bundle.json names (byte-level or a tokenizer.json), checked against the text embedding. */
  tokenizer: TextTokenizer;
  /** embed.table: the embedding table file, checked and hashed but not read (rows are read when needed). */
  tableFile?: TableFile;
}

/** Largest bundle.json read (the demo's is ~10 kB; a real model's, with its prefill template, under 100 kB). */
const MAX_MANIFEST: SizeLimit = { bytes: 16 * 2 ** 20, words: 'the 16 MiB a bundle.json may have' };
const bundleError = (message: string, where: string) => new BundleError(message, where);
const IN_BUNDLE = (dir: string) => ({ dir, words: 'the bundle folder' });

/**
 * bundle.json's text, said as the user sees it when it cannot be had: no folder, something else than a
 * folder, a folder without it, or the reader's refusal (read-checked.ts).
 */
async function readManifest(dir: string, manifestPath: string): Promise<string> {
  let found: Stats | undefined;
  try {
    found = await stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BundleError(`${dir}: no such folder`, dir);
    throw new BundleError(`${dir}: cannot read the bundle folder (${fsReason(error)})`, dir);
  }
  if (!found.isDirectory()) throw new BundleError(`${dir} is ${kindOf(found)}, not a folder; give a bundle folder (with bundle.json)`, dir);
  if (!(await lstat(manifestPath).catch(() => undefined))) throw new BundleError(`no bundle.json in ${dir} (not a bundle folder)`, dir);
  return readTextChecked(manifestPath, { limit: MAX_MANIFEST, inside: IN_BUNDLE(dir), what: 'the bundle manifest', error: bundleError });
}

/** Reads and checks `bundle.json` and reads every model file it names; sessions are opened later. */
export async function loadBundle(dirArg: string): Promise<LoadedBundle> {
  const dir = resolve(dirArg);
  const manifestPath = join(dir, 'bundle.json');
  const text = await readManifest(dir, manifestPath);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BundleError(`${manifestPath}: not valid JSON: ${jsonSyntaxMessage(text, error)}`, manifestPath);
  }
  const parsed = BundleManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A record's bad key: zod says "Invalid key in record"; the key pattern's own message says what is expected.
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    throw new BundleError(`${manifestPath}: ${issue.path.join('.') || '(root)'}: ${message}`, manifestPath);
  }
  const m = parsed.data;
  checkConsistency(m, manifestPath);

  const exports: LoadedBundle['exports'] = [];
  const add = (label: string, exp: NetworkExport, contract: Contract): void => {
    checkExportAgainstContract(label, exp, contract, manifestPath);
    exports.push({ label, exp });
  };
  if (m.embed.export) add('embed', m.embed.export, embedContract(m.talker.hidden));
  const extras: TalkerExtras = { ...(m.talker.codebooks === 'all' ? { codebooks: m.codebooks } : {}), ...(m.encoder ? { encoder: m.encoder } : {}) };
  for (const [key, exp] of Object.entries(m.encoder?.exports ?? {})) add(`encoder ${key}`, exp, encoderContract(m.encoder as NonNullable<typeof m.encoder>, presetOf(key), floatOf(key)));
  for (const [key, exp] of Object.entries(m.talker.exports)) {
    add(`talker ${key}`, exp, talkerContract(m.talker, m.talker.vocab, presetOf(key), floatOf(key), 1, extras));
  }
  const cp = m.codePredictor;
  for (const [key, exp] of Object.entries(cp?.exports ?? {})) {
    add(`code-predictor ${key}`, exp, codePredictorContract(cp as NonNullable<typeof cp>, m.codebookSize, presetOf(key), floatOf(key), codePredictorInputHidden(m)));
  }
  for (const [key, exp] of Object.entries(m.vocoder.exports)) add(`vocoder ${key}`, exp, vocoderContract(m.codebooks));
  for (const [key, exp] of Object.entries(m.batch?.talker ?? {})) {
    const k = parseBatchKey(key);
    add(`talker batch ${key}`, exp, talkerContract(m.talker, m.talker.vocab, k.preset, k.precision === 'fp16' ? 'float16' : 'float32', k.bucket ?? BATCH_DIM));
  }
  for (const [key, exp] of Object.entries(m.batch?.codePredictor ?? {})) {
    const k = parseBatchKey(key);
    add(`code-predictor batch ${key}`, exp, codePredictorContract(codePredictorOf(m, 'batch.codePredictor'), m.codebookSize, k.preset, k.precision === 'fp16' ? 'float16' : 'float32', codePredictorInputHidden(m), k.bucket ?? BATCH_DIM));
  }

  const files = new Map<string, Uint8Array>();
  const hash = createHash('sha256').update(text);
  for (const name of [...new Set(exports.map((e) => e.exp.file))].sort()) {
    const path = join(dir, name);
    if (!resolve(path).startsWith(dir + sep)) throw new BundleError(`${manifestPath}: file "${name}" lies outside the bundle folder`, manifestPath);
    const users = exports.filter((e) => e.exp.file === name).map((e) => e.label).join(', ');
    files.set(name, await readChecked(path, { limit: MAX_MODEL, inside: IN_BUNDLE(dir), what: `model file of ${users}`, error: bundleError }));
    hash.update(name).update(files.get(name) as Uint8Array);
  }
  const tableFile = m.embed.table ? await openTableFile(dir, m, m.embed.table, manifestPath, hash) : undefined;
  const { tokenizer, file } = await loadTextTokenizer(dir, m, manifestPath);
  if (file) hash.update(file.name).update(file.bytes);
  return { dir, manifest: m, hash: hash.digest('hex'), files, exports, tokenizer, ...(tableFile ? { tableFile } : {}) };
}

/** Node cannot hold a larger file in one buffer. */
const MAX_MODEL: SizeLimit = { bytes: 2 ** 31 - 1, words: 'the 2 GiB that can be read' };

const presetOf = (key: string): 'eager' | 'graph' => (key.startsWith('graph') ? 'graph' : 'eager');
const floatOf = (key: string): 'float32' | 'float16' => (key.split('-')[1] === 'fp16' ? 'float16' : 'float32');

function checkConsistency(m: BundleManifest, where: string): void {
  const fail = (msg: string): never => {
    throw new BundleError(`${where}: ${msg}`, where);
  };
  if (Math.abs(m.hopLength * m.frameRate - m.sampleRate) > 1e-9) fail(`hopLength × frameRate must equal sampleRate: ${m.hopLength} × ${m.frameRate} ≠ ${m.sampleRate}`);
  checkParallelCodebooks(m, fail);
  for (const [name, d] of [['talker', m.talker], ['codePredictor', m.codePredictor]] as const) {
    if (d && d.heads % d.kvHeads !== 0) fail(`${name}.heads (${d.heads}) must be a multiple of ${name}.kvHeads (${d.kvHeads})`);
  }
  checkCodePredictorWidth(m, fail);
  if (m.codePredictor && m.codePredictor.maxPositions < m.codebooks) fail(`codePredictor.maxPositions (${m.codePredictor.maxPositions}) must be at least codebooks (${m.codebooks})`);
  if (m.specialCodes.eos !== undefined && m.specialCodes.eos >= m.talker.vocab) fail(`specialCodes.eos (${m.specialCodes.eos}) must be a talker logit index (< talker.vocab ${m.talker.vocab})`);
  if (m.specialCodes.bos >= m.embed.codecRowsPerCodebook) fail(`specialCodes.bos (${m.specialCodes.bos}) must be a codec row (< embed.codecRowsPerCodebook ${m.embed.codecRowsPerCodebook})`);
  checkTalkerVocab(m, fail);
  checkEmbedSource(m, fail);
  if (m.batch) checkBatchSection(m.batch, fail);
  if (m.encoder) {
    // The text goes to the encoder; the talker's positions are the steps: BOS frame, frames, EOS, then the delays.
    const text = maxTextPositions(m.text);
    if (text > m.encoder.maxPositions) fail(`encoder.maxPositions (${m.encoder.maxPositions}) must hold the longest text, ${text} ids`);
    const steps = 1 + m.maxFrames + maxDelay(m);
    if (steps > m.talker.maxPositions) fail(`talker.maxPositions (${m.talker.maxPositions}) must hold 1 + maxFrames + the largest codebook delay = ${steps} steps`);
    return;
  }
  checkTalkerText(m, where);
  const textRows = m.embed.codecRowOffset;
  if (m.text.bos !== undefined && m.text.bos >= textRows) fail(`text.bos (${m.text.bos}) must be a text embedding row (< embed.codecRowOffset ${textRows})`);
  if (m.text.tokenizer === 'byte' && textRows < 256) fail(`embed.codecRowOffset (${textRows}) must be at least 256: byte-level text ids are 0..255`);
  const prefill = maxPrefillPositions(m);
  const need = prefill.positions + m.maxFrames;
  if (need > m.talker.maxPositions) fail(`talker.maxPositions (${m.talker.maxPositions}) must hold ${prefill.terms} + maxFrames = ${need}`);
}

type Fail = (msg: string) => never;

/**
 * Talker logits beyond codebook 0's codes and EOS must be declared (talker.specialIds), so that the
 * engine knows to mask them; codebookSizes must fit the logit width.
 */
function checkTalkerVocab(m: BundleManifest, fail: Fail): void {
  if (m.codebookSizes) {
    if (m.codebookSizes.length !== m.codebooks) fail(`codebookSizes has ${m.codebookSizes.length} entries, codebooks is ${m.codebooks}: one size per codebook`);
    const over = m.codebookSizes.findIndex((n) => n > m.codebookSize);
    if (over >= 0) fail(`codebookSizes[${over}] (${m.codebookSizes[over]}) exceeds codebookSize (${m.codebookSize}), the code predictor's logit width`);
  }
  const v = codebookSizeOf(m, 0);
  const vocab = m.talker.vocab;
  const eos = m.specialCodes.eos;
  const codesAndEos = eos === undefined ? v : v + 1;
  if (vocab > codesAndEos && !m.talker.specialIds) {
    const beyond = eos === undefined ? `codebook size (${v}) and there is no EOS id, so ids ${v}..${vocab - 1}` : `codebook size (${v}) + 1, so ids ${v}..${vocab - 1} other than EOS (${eos})`;
    fail(`talker.specialIds is missing: talker.vocab (${vocab}) > ${beyond} are not codes; declare them ("specialIds": {"suppress": "all-except-eos"}) so the engine masks them before sampling`);
  }
  for (const id of Object.keys(m.talker.specialIds?.names ?? {}).map(Number)) {
    if (id < v || id >= vocab) fail(`talker.specialIds.names["${id}"] is not a special id: special ids are ${v}..${vocab - 1} (codebook size ${v}, talker.vocab ${vocab})`);
  }
}

/** The code predictor reads talker.hidden-wide inputs: its own hidden must match, or a projection be declared. */
function checkCodePredictorWidth(m: BundleManifest, fail: Fail): void {
  if (!m.codePredictor) return;
  const p = m.codePredictor.projection;
  if (!p) {
    if (m.codePredictor.hidden !== m.talker.hidden) {
      fail(`codePredictor.hidden (${m.codePredictor.hidden}) must equal talker.hidden (${m.talker.hidden}): position 0 is the talker's hidden state; declare codePredictor.projection {"from": ${m.talker.hidden}, "to": ${m.codePredictor.hidden}} if the export projects its inputs`);
    }
    return;
  }
  if (p.from !== m.talker.hidden) fail(`codePredictor.projection.from (${p.from}) must equal talker.hidden (${m.talker.hidden}): the code predictor is fed the talker's hidden state and codec embeddings`);
  if (p.to !== m.codePredictor.hidden) fail(`codePredictor.projection.to (${p.to}) must equal codePredictor.hidden (${m.codePredictor.hidden})`);
}

/** Exactly one of embed.export (an ONNX graph) and embed.table (a file), holding every row the layout names. */
function checkEmbedSource(m: BundleManifest, fail: Fail): void {
  const { export: exp, table } = m.embed;
  if (exp && table) fail('embed.export and embed.table are both set: give the embedding table one way');
  if (!exp && !table) fail('embed needs "export" (an ONNX embedding graph) or "table" (a file read by rows)');
  if (m.embed.codecRowsPerCodebook < m.codebookSize) {
    fail(`embed.codecRowsPerCodebook (${m.embed.codecRowsPerCodebook}) must be at least codebookSize (${m.codebookSize}): code k of codebook c is row codecRowOffset + c × codecRowsPerCodebook + k, so larger codes would read the next codebook's rows`);
  }
  const rows = m.embed.codecRowOffset + m.codebooks * m.embed.codecRowsPerCodebook;
  if (table && table.rows < rows) fail(`embed.table.rows (${table.rows}) must hold codecRowOffset + codebooks × codecRowsPerCodebook = ${rows} rows`);
  if (table && (table.format === 'safetensors') !== (table.tensor !== undefined)) fail('embed.table.tensor names the tensor of a safetensors file, and only of one');
}

import { writeTrace } from '../../../../electron/common/trace/write-trace.js';
import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import { header, logitRow, makeSteps } from '../forensics/synthetic-trace.js';

/**
 * Twenty-two malformed tts-parity-trace/1 files made from a good 3-step trace (q = 4):
 * [what, text, line number the error must name, words the message must contain].
 * Shared by the reader's unit test and the CLI test of `parity compare-trace`.
 */
export function malformedTraces(): [string, string, number, string][] {
  const lines = writeTrace(header(4), makeSteps(3, 4)).trimEnd().split('\n');
  const replace = (n: number, line: string) => lines.map((l, i) => (i === n - 1 ? line : l)).join('\n');
  return [
    ['empty file', '', 1, 'empty trace'],
    ['header only', lines[0], 1, 'no steps'],
    ['not JSON', replace(3, '{"step":2,'), 3, 'not valid JSON'],
    ['no header', lines.slice(1).join('\n'), 1, 'expected the header'],
    [
      'wrong schema',
      replace(1, '{"schema":"tts-parity-trace/2","engine":"x","q":4,"frameRate":12.5,"sampleRate":24000}'),
      1,
      'schema "tts-parity-trace/2"',
    ],
    [
      'header without q',
      replace(1, '{"schema":"tts-parity-trace/1","engine":"x","frameRate":12.5,"sampleRate":24000}'),
      1,
      '"q"',
    ],
    ['step out of order', replace(3, lines[3]), 3, 'expected step 2, found step 3'],
    ['0-based steps', replace(2, lines[1].replace(/"step":1/, '"step":0')), 2, 'expected step 1, found step 0 (steps are 1, 2, 3… in order; 1 = prefill)'],
    ['codes short', replace(4, lines[3].replace(/"codes":\[(\d+),/, '"codes":[')), 4, 'expected 4 codes'],
    [
      'argmax not an integer',
      replace(2, lines[1].replace(/"argmax":\d+/, '"argmax":1.5')),
      2,
      '"logits.argmax"',
    ],
    ['mean a bad string', replace(4, lines[3].replace(/"mean":[^,]+/, '"mean":"big"')), 4, '"logits.mean"'],
    // Partial steps are fine (any one of logits statistics, codes, codePredictorLogits), none is not.
    ['step with no logits, codes or code-predictor list', replace(2, '{"step":1,"nan":{"talker":0,"codePredictor":0,"vocoder":0}}'), 2, 'step 1: no "logits" statistic, "codes" or "codePredictorLogits"'],
    ['step whose only logits object is empty', replace(3, '{"step":2,"logits":{}}'), 3, 'step 2: no "logits" statistic'],
    [
      'code outside the header\'s codebookSize',
      [withHeader(lines[0], { codebookSize: 64 }), lines[1], lines[2].replace(/"codes":\[[^\]]*\]/, '"codes":[1,2,3,64]'), lines[3]].join('\n'),
      3,
      'step 2: "codes.3": 64 is outside codebook 3 (codebookSize 64 in the header: codes 0…63)',
    ],
    [
      'vocoder chunks with a gap',
      replace(1, withHeader(lines[0], { vocoderChunks: [{ startSample: 0, samples: 960 }, { startSample: 1000, samples: 960 }] })),
      1,
      'header: "vocoderChunks": chunk 2 starts at sample 1000, expected 960 (where chunk 1 ends)',
    ],
    ['vocoder chunk with a negative length', replace(1, withHeader(lines[0], { vocoderChunks: [{ startSample: 0, samples: -1 }] })), 1, '"vocoderChunks.0.samples"'],
    ['codebookSize list not q long', replace(1, withHeader(lines[0], { codebookSize: [64, 64] })), 1, 'header: "codebookSize": expected one size or q = 4 sizes, found 2'],
    // q entries (one per codebook 0..q-1) instead of q-1 (codebooks 1..q-1): read as is, codebook 1 would
    // be compared with the other side's codebook 0 statistics, a false divergence at step 1.
    ['code-predictor list of q entries', replace(2, withCodePredictorLogits(lines[1], 4)), 2, 'step 1: "codePredictorLogits": expected 3 entries (q−1), found 4'],
    // Python's json.dumps writes float('nan') as a bare NaN, which JSON.parse refuses: say how to write it.
    ['bare NaN literal', replace(2, lines[1].replace(/"mean":[^,]+/, '"mean":NaN')), 2, 'JSON has no NaN: write it as the string "NaN"'],
    ['bare -Infinity literal', replace(3, lines[2].replace(/"min":[^,]+/, '"min":-Infinity')), 3, 'JSON has no -Infinity: write it as the string "-Infinity"'],
    ['negative code', replace(2, lines[1].replace(/"codes":\[\d+/, '"codes":[-1')), 2, '"codes.0"'],
    ['hidden count negative', replace(3, lines[2].replace(/}$/, ',"hidden":{"mean":0,"std":1,"min":-1,"max":1,"nan":-1,"inf":0}}')), 3, '"hidden.nan"'],
  ];
}

function withHeader(line: string, extra: object): string {
  return JSON.stringify({ ...(JSON.parse(line) as object), ...extra });
}

function withCodePredictorLogits(line: string, entries: number): string {
  const step = JSON.parse(line) as { step: number };
  const stats = Array.from({ length: entries }, (_, c) => logitStats(logitRow(step.step, c + 1)));
  return JSON.stringify({ ...step, codePredictorLogits: stats });
}

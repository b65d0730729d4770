import { reportJsonChunks } from './json-number.js';
import { nonFiniteReplacer } from './json-number.js';

const MARKER = '\u0000rows\u0000';

/**
 * reportJsonChunks of a trace report whose `divergence.steps` is written from `rows` as they come, so
 * a report of millions of steps is written without holding its rows. The text is reportJsonChunks's,
 * piece for piece joined: one compact row per line.
 */
export async function* reportJsonWithRows(report: { divergence: object }, rows: AsyncIterable<object>): AsyncGenerator<string> {
  const marked = { ...report, divergence: { ...report.divergence, steps: { toJSON: () => MARKER } } };
  const pieces = reportJsonChunks(marked);
  const at = pieces.indexOf(JSON.stringify(MARKER));
  const key = pieces[at - 1]; // "\n<indent>\"steps\": "
  const indent = key.slice(1, key.indexOf('"'));
  yield* pieces.slice(0, at);
  let count = 0;
  for await (const row of rows) yield `${count++ === 0 ? '[' : ','}\n${indent}  ${JSON.stringify(row, nonFiniteReplacer)}`;
  yield count === 0 ? '[]' : `\n${indent}]`;
  yield* pieces.slice(at + 1);
}

import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { renderComparisonMarkdown, type ComparisonView } from '../../../../electron/common/report/comparison-markdown.js';
import { codeBlock, inlineCode } from '../../../../electron/common/report/format/markdown-safe.js';
import { mergeShards } from '../../../../electron/common/sweep/merge-shards.js';
import { caseLine, headerLine, parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { SWEEP_SCHEMA, type SweepCase, type SweepHeader } from '../../../../electron/common/sweep/sweep-case.js';
import { renderSweepMarkdown } from '../../../../electron/common/sweep/sweep-markdown.js';
import { makeSteps } from '../forensics/synthetic-trace.js';

// Issue 27 item 7: report.md passed raw HTML from prompts and trace headers through (GitHub and GitLab
// render it). Every string the tool does not control, in every place a report.md or sweep.md puts one,
// now reaches the file with no tag a renderer would read, and cannot close a code block early.

const PAYLOADS = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '</details><iframe src="https://x.example">', '<a href="javascript:alert(1)">x</a>', 'a & b <b>bold</b>'];
/** Raw HTML a Markdown renderer would pass through: any `<` followed by a tag name or `/`. */
const RAW_TAG = /<\/?[a-z]/i;

const steps = makeSteps(3, 4);
const base: ComparisonView = { title: 't', sides: [], verdict: 'identical', divergence: localise(steps, steps), command: 'parity compare', footer: 'f' };

/** Each field of the view a payload can reach (a prompt in sides and the command, a header in the title, node names in drill lines…). */
const FIELDS: [string, (p: string) => Partial<ComparisonView>][] = [
  ['title (profiles, trace header engine)', (p) => ({ title: `Parity report: ${p} vs eager` })],
  ['sides (the prompt, a trace header)', (p) => ({ sides: [`Text: ${JSON.stringify(p)}, seed 0`, `A: engine ${p}`] })],
  ['warnings', (p) => ({ warnings: [`fault ${p} did not act`] })],
  ['baseline lines', (p) => ({ baseline: [`A vs A: ${p}`] })],
  ['drill lines (ONNX node names)', (p) => ({ drill: [`first differing node "${p}"`] })],
  ['footer', (p) => ({ footer: `written by ${p}` })],
];

describe('report.md: HTML from untrusted strings is escaped', () => {
  const cases = FIELDS.flatMap(([field, make]) => PAYLOADS.map((p) => [field, p, make] as const));
  it.each(cases)('%s: %s', (_field, payload, make) => {
    const md = renderComparisonMarkdown({ ...base, ...make(payload) });
    expect(md).not.toMatch(RAW_TAG);
    // The text is still there, as entities that render as the characters.
    expect(md).toContain(payload.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  });

  it('a command holding backticks stays inside its code block (the fence is longer than any run in it)', () => {
    const command = "parity compare --text '```\n<script>x</script>\n```' --a eager";
    const md = renderComparisonMarkdown({ ...base, command });
    expect(md).toContain(['````sh', command, '````'].join('\n'));
    expect(codeBlock('a ``` b ````` c')[0]).toBe('``````');
    expect(inlineCode('x`y')).toBe('``x`y``');
    expect(inlineCode('`x')).toBe('`` `x ``');
  });
});

describe('sweep.md: corpus ids, profiles and errors are escaped', () => {
  function summaryWith(payload: string) {
    const c: SweepCase = {
      index: 0, id: payload, seed: 0, verdict: 'error', firstStep: null, stage: null, codebook: null, reconverges: null, flip: null, correlation: null,
      nullDepthDb: null, loudnessDeltaLU: null, lsdDb: null, mcdDb: null, error: `failed on ${payload}`, timings: { aMs: 1, bMs: 1, wallMs: 1 },
    } as SweepCase;
    const header: SweepHeader = { schema: SWEEP_SCHEMA, mode: 'profiles', a: `graph${payload}`, b: 'eager', bundle: payload, corpusSha256: 'a'.repeat(64), totalCases: 2, shard: { index: 1, count: 1 }, planned: [`${payload}@0`, 'gone@0'] };
    const shard = parseShardLines(headerLine(header) + caseLine(c), 'shard');
    return mergeShards([{ ...shard, file: 'shard' }]);
  }
  it.each(PAYLOADS)('%s', (payload) => {
    const md = renderSweepMarkdown(summaryWith(payload));
    // Code spans (profiles, bundle) render their text literally; outside them no tag may remain.
    const outsideCode = md.replace(/(`+)[^`]*?\1/g, '');
    expect(outsideCode).not.toMatch(RAW_TAG);
    expect(md).toContain(`failed on ${payload.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}`);
  });
});

import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// gate reads a report.json laid out as compare-trace writes it a line at a time (its rows apart), and
// any other layout whole. The two must say the same of the same report: here each report is written
// both ways, sealed with the digest over its own text (docs/report-format.md), and gate's lines compared.
const dir = mkdtempSync(join(tmpdir(), 'parity-gate-layout-'));
const made = join(dir, 'made');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function trace(path: string, steps: number, differFrom: number): void {
  const lines = ['{"schema":"tts-parity-trace/1","engine":"bench","q":2,"frameRate":12.5,"sampleRate":24000}'];
  for (let step = 1; step <= steps; step++) {
    const d = step >= differFrom ? 0.01 : 0;
    lines.push(JSON.stringify({ step, logits: { mean: Math.sin(step) + d, std: 1, min: -5, max: 7, argmax: step % 64 }, codes: [step % 64, (step + d * 100) % 64] }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

beforeAll(async () => {
  trace(join(dir, 'a.jsonl'), 1000, 1001);
  trace(join(dir, 'b.jsonl'), 1000, 601);
  const run = await runParity(['compare-trace', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), '--out', made]);
  expect(run.stderr).toBe('');
}, 60_000);

/** A copy of the fixture whose report.json is `edit`ed, written in compare-trace's layout or re-indented by 4, and sealed again. */
function variant(name: string, layout: 'as-written' | 'reindented', edit: (report: Record<string, unknown>) => void): string {
  const to = join(dir, name);
  cpSync(made, to, { recursive: true });
  const text = readFileSync(join(to, 'report.json'), 'utf8');
  const report = JSON.parse(text) as Record<string, unknown> & { integrity: { reportSha256: string } };
  edit(report);
  report.integrity.reportSha256 = '';
  // As written: the report's own text with only the edited line changed, so the layout stays the writer's.
  let out = layout === 'reindented' ? JSON.stringify(report, null, 4) + '\n' : rewriteRows(text, report);
  out = out.replace('"reportSha256": ""', `"reportSha256": "${createHash('sha256').update(out).digest('hex')}"`);
  writeFileSync(join(to, 'report.json'), out);
  return to;
}

/**
 * `text` (compare-trace's layout) with the edited report's values put back line for line: each row of
 * divergence.steps, and each top-level key whose value is on its own line.
 */
function rewriteRows(text: string, report: Record<string, unknown>): string {
  const rows = (report.divergence as { steps: unknown[] }).steps;
  let i = 0;
  return text
    .split('\n')
    .map((line) => {
      const comma = line.endsWith(',') ? ',' : '';
      if (line.startsWith('      {"step":')) return `      ${JSON.stringify(rows[i++])}${comma}`;
      const key = /^ {2}"(\w+)": [^{[]/.exec(line)?.[1];
      return key === undefined || key === 'integrity' ? line : `  "${key}": ${JSON.stringify(report[key])}${comma}`;
    })
    .join('\n')
    .replace(/"reportSha256": "[0-9a-f]{64}"/, '"reportSha256": ""');
}

async function gateLines(fixture: string): Promise<string> {
  const run = await runParity(['gate', fixture]);
  expect(run.stderr).toBe('');
  return run.stdout.replaceAll(fixture, 'FIXTURE');
}

describe('gate: the same result whatever the layout of report.json', () => {
  it('an intact report passes alike', async () => {
    const streamed = await gateLines(variant('ok-written', 'as-written', () => {}));
    expect(streamed).toMatch(/^PASS FIXTURE: traces .* recorded diverged at step 601 \(talker-logits\)\ngate: 1 passed, 0 failed\n$/);
    expect(await gateLines(variant('ok-reindented', 'reindented', () => {}))).toBe(streamed);
  });

  it('a row the schema refuses: named alike', async () => {
    const edit = (report: Record<string, unknown>) => {
      (report.divergence as { steps: { stage: string }[] }).steps[700].stage = 'nowhere';
    };
    const streamed = await gateLines(variant('row-written', 'as-written', edit));
    expect(streamed).toBe('FAIL FIXTURE\n  - report.json does not match the trace comparison schema: Invalid option: expected one of "talker-logits"|"sampled-code"|"code-predictor"|"vocoder"\ngate: 0 passed, 1 failed\n');
    expect(await gateLines(variant('row-reindented', 'reindented', edit))).toBe(streamed);
  });

  it('a refused row and a refused key before divergence: the key is named first, alike', async () => {
    const edit = (report: Record<string, unknown>) => {
      (report.divergence as { steps: { stage: string }[] }).steps[700].stage = 'nowhere';
      report.verdictRule = 5;
    };
    const streamed = await gateLines(variant('key-written', 'as-written', edit));
    expect(streamed).toContain('report.json does not match the trace comparison schema: Invalid input: expected string, received number');
    expect(await gateLines(variant('key-reindented', 'reindented', edit))).toBe(streamed);
  });
});

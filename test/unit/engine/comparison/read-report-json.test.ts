import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sealReport } from '../../../../electron/engine/comparison/fixture-integrity.js';
import { InputError } from '../../../../electron/common/errors.js';
import { MAX_REPORT_LINE, readReportJson } from '../../../../electron/engine/comparison/read-report-json.js';

// The reference is the whole text: JSON.parse of it, and the seal computed from it here with node:crypto
// (the digest blanked as docs/report-format.md says), which is what gate read before it read line by line.
const dir = mkdtempSync(join(tmpdir(), 'report-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rows = Array.from({ length: 50 }, (_, i) => ({ step: i + 1, a: { mean: i / 3 }, b: null, codesA: [i, 2], codesB: null, stage: i > 30 ? 'talker-logits' : null, maxStatDiff: i === 7 ? 'NaN' : 0.5 }));
const report = {
  kind: 'traces',
  verdict: 'diverged',
  steps: [{ step: 1, note: 'a top-level array of rows stays in the report' }],
  divergence: { firstStep: 32, divergedSteps: [32, 33], nested: { steps: [{ x: 1 }] }, steps: rows },
  after: 'divergence',
};
const sealed = sealReport(report, { 'a.jsonl': 'x' });

function wholeSeal(text: string): { recorded: string | undefined; actual: string } {
  const match = /"reportSha256": "([0-9a-f]{64})"/.exec(text);
  return { recorded: match?.[1], actual: createHash('sha256').update(text.replace(/"reportSha256": "[0-9a-f]{64}"/, '"reportSha256": ""')).digest('hex') };
}

async function read(name: string, text: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const seen: unknown[] = [];
  const result = await readReportJson(path, (row, index) => seen.push([index, row]));
  return { result: result!, seen };
}

describe('readReportJson', () => {
  it('a report as written: the rows of divergence.steps one at a time, the rest as JSON.parse reads it, the same seal', async () => {
    const { result, seen } = await read('report.json', sealed);
    const whole = JSON.parse(sealed);
    expect(seen).toEqual(whole.divergence.steps.map((row: unknown, i: number) => [i, row]));
    expect(result.rowsApart).toBe(true);
    expect(result.report).toEqual({ ...whole, divergence: { ...whole.divergence, steps: [] } });
    expect(result.seal).toEqual(wholeSeal(sealed));
    expect(result.seal.recorded).toBe(whole.integrity.reportSha256);
  });

  it.each([
    ['re-indented by 4', JSON.stringify(JSON.parse(sealed), null, 4)],
    ['CRLF line ends', sealed.replaceAll('\n', '\r\n')],
    ['one line', JSON.stringify(JSON.parse(sealed))],
    ['two rows on one line', sealed.replace('},\n      {"step":3', '}, {"step":3')],
  ])('laid out otherwise (%s): the same report as JSON.parse, rows included', async (name, text) => {
    expect(text).not.toBe(sealed);
    const { result } = await read(`other-${name.replace(/\W+/g, '-')}.json`, text);
    expect(result.report).toEqual(JSON.parse(text));
    expect(result.rowsApart).toBe(false);
    expect(result.seal).toEqual(wholeSeal(text));
  });

  it.each([
    ['a missing comma between rows', sealed.replace('},\n      {"step":3', '}\n      {"step":3')],
    ['a comma after the last row', sealed.replace(/("step":50[^\n]*)\n/, '$1,\n')],
    ['a broken row', sealed.replace('{"step":9,', '{"step":9,,')],
    ['a broken line after the rows', sealed.replace('"after": "divergence"', '"after": divergence')],
    ['cut short', sealed.slice(0, sealed.length - 40)],
  ])('not JSON (%s): JSON.parse\'s own message for the whole text', async (name, text) => {
    expect(text).not.toBe(sealed);
    let expected = '';
    try {
      JSON.parse(text);
    } catch (error) {
      expected = (error as Error).message;
    }
    const { result } = await read(`bad-${name.replace(/\W+/g, '-')}.json`, text);
    expect(expected).not.toBe('');
    expect(result.notJson).toBe(expected);
    expect(result.report).toBeUndefined();
    expect(result.seal).toEqual(wholeSeal(text));
  });

  it('a line past MAX_REPORT_LINE (valid JSON all the same): one InputError naming the file, line and limit', async () => {
    // Before the line reader this was read and held whole (and past 2^29 characters it crashed on V8's string limit).
    const path = join(dir, 'long-line.json');
    const fd = openSync(path, 'w');
    writeSync(fd, '{\n  "note": "');
    const block = Buffer.alloc(1 << 20, 'x');
    for (let written = 0; written <= MAX_REPORT_LINE; written += block.length) writeSync(fd, block);
    writeSync(fd, '"\n}\n');
    closeSync(fd);
    const read = readReportJson(path);
    await expect(read).rejects.toThrow(InputError);
    await expect(read).rejects.toThrow(`${path}:2: line is longer than ${MAX_REPORT_LINE} characters (the limit of a report.json line; parity writes one step row per line)`);
    rmSync(path);
  }, 60_000);

  it('nothing there: undefined', async () => {
    expect(await readReportJson(join(dir, 'nothing.json'))).toBeUndefined();
  });
});

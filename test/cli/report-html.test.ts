import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { NO_REPORT_PAGE, NO_REPORT_PAGE_WARNING } from './no-report-page.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-report-html-'));
const fixtures = join(dir, 'fixtures');
const out = join(fixtures, 'stale');
const firstRun = join(dir, 'first-run');
// The same inputs twice: a fixed report time, the same prompt, profiles and --out path.
const env = { SOURCE_DATE_EPOCH: '1700000000' };
const compareArgs = ['compare', '--text', 'Share me.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--out', out];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const first = await runParity(compareArgs, { env, timeoutMs: 60_000 });
  expect(first.stderr).toBe('');
  renameSync(out, firstRun);
  const second = await runParity(compareArgs, { env, timeoutMs: 60_000 });
  expect(second.stderr).toBe('');
  expect(second.stdout).toContain(`wrote ${out}/ (a.wav, b.wav, diff.wav, a.jsonl, b.jsonl, report.json, report.md, report.html, overlay.png, steps.png, spectrogram-diff.png)`);
}, 120_000);

describe('compare --out: shareable files', () => {
  it('the PNGs have the same bytes for the same inputs; report.html differs only where report.md does (its measured times)', () => {
    for (const name of ['overlay.png', 'steps.png', 'spectrogram-diff.png']) {
      expect(readFileSync(join(out, name)).equals(readFileSync(join(firstRun, name))), name).toBe(true);
    }
    // Each run measures its own stage times (report.md's "A: … ms" lines), so the two reports differ there
    // and nowhere else: page data without report.md, and the page around its data, are byte-identical.
    const split = (folder: string) => {
      const html = readFileSync(join(folder, 'report.html'), 'utf8');
      const m = /(<script type="application\/json" id="report-data">)([\s\S]*?)(<\/script>)/.exec(html)!;
      const { markdown, ...data } = JSON.parse(m[2]);
      return { outside: html.replace(m[2], ''), data, markdown: markdown as string };
    };
    const [a, b] = [split(firstRun), split(out)];
    expect(b.outside).toBe(a.outside);
    expect(b.data).toEqual(a.data);
    const differing = b.markdown.split('\n').filter((line, i) => line !== a.markdown.split('\n')[i]);
    for (const line of differing) expect(line).toMatch(/ ms\b/);
  });

  it('report.md links every PNG written beside it', () => {
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    for (const name of ['overlay.png', 'steps.png', 'spectrogram-diff.png']) expect(md).toContain(`](${name})`);
  });

  it('report.html carries the report: its verdict and first divergent step are the ones report.json recorded', () => {
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]);
    expect(data.verdict).toBe(report.verdict);
    expect(data.firstStep).toBe(report.divergence.firstStep);
    expect(data.marker.sec).toBeCloseTo((report.divergence.firstStep - 1) / report.a.frameRate, 9);
  });
});

describe('gate --html and --junit', () => {
  it('the fixture with its shareable files still passes; gate.html links its report.html; the JUnit XML validates', async () => {
    const html = join(dir, 'ci', 'gate.html');
    const junit = join(dir, 'ci', 'junit.xml');
    writeFileSync(join(dir, 'a-file'), '');
    const blocked = await runParity(['gate', fixtures, '--junit', join(dir, 'a-file', 'junit.xml')], { timeoutMs: 60_000 });
    expect(blocked.stderr).toBe(`parity gate: --junit ${join(dir, 'a-file', 'junit.xml')}: ${join(dir, 'a-file')} is a file, not a folder\n`);
    expect(blocked.status).toBe(2);
    // ci/ does not exist yet: it is created, as CI artifact folders often are not.
    const run = await runParity(['gate', fixtures, '--html', html, '--junit', junit], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const index = readFileSync(html, 'utf8');
    const href = /<a href="([^"]+)">/.exec(index)![1];
    expect(href).toBe('../fixtures/stale/report.html');
    expect(existsSync(join(dir, 'ci', href))).toBe(true);
    expect(index).toContain('<td>diverged</td>');
    const xml = readFileSync(junit, 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [readFileSync('test/fixtures/junit/junit-ci.xsd', 'utf8')] });
    expect(result.errors).toEqual([]);
    expect(xml).toContain(`<testcase classname="parity.gate" name="${out}"`);
    expect(xml).toContain('tests="1" failures="0"');
  }, 90_000);
});

describe('compare --out without a built report page (an install built with tsc alone)', () => {
  it('writes the fixture without report.html, says so in one warning line, exits 0', async () => {
    const folder = join(dir, 'no-page');
    const run = await runParity([...compareArgs.slice(0, -1), folder], { env, timeoutMs: 60_000, imports: [NO_REPORT_PAGE] });
    expect(run.status).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(NO_REPORT_PAGE_WARNING)]);
    expect(run.stdout).toContain(`wrote ${folder}/ (a.wav, b.wav, diff.wav, a.jsonl, b.jsonl, report.json, report.md, overlay.png, steps.png, spectrogram-diff.png)`);
    expect(existsSync(join(folder, 'report.html'))).toBe(false);
  }, 60_000);
});

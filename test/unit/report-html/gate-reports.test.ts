import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { GateRun } from '../../../electron/common/report/gate/gate-entry.js';
import { gateHtml } from '../../../electron/common/report/gate/gate-html.js';
import { gateJunitXml } from '../../../electron/common/report/gate/gate-junit.js';

const XSD = readFileSync('test/fixtures/junit/junit-ci.xsd', 'utf8');
const validate = async (xml: string) => validateXML({ xml: [{ fileName: 'gate.xml', contents: xml }], schema: [XSD] });

const run: GateRun = {
  total: 2,
  shard: { index: 1, count: 1 },
  entries: [
    { dir: 'fixtures/ok', ok: true, summary: 'graph vs graph: identical', problems: [], recordedVerdict: 'identical', reportHref: 'ok/report.html', seconds: 1.25 },
    {
      dir: 'fixtures/a&b <"odd">',
      ok: false,
      summary: 'eager vs graph: diverged at step 3 (talker-logits)',
      problems: ['report.md was changed after it was written (sha256 0123…)', 'step 3: talker logit mean 0.1 vs 0.2 \u0001 & <x>'],
      recordedVerdict: 'within-tolerance',
      reportHref: null,
      seconds: 0.5,
    },
  ],
};

describe('gate --junit and --html', () => {
  it('the JUnit XML validates against the CI schema, with escaped names and problems', async () => {
    const xml = gateJunitXml(run);
    const result = await validate(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(xml).toContain('<testsuite name="parity gate" tests="2" failures="1" errors="0" time="1.750" skipped="0">');
    expect(xml).toContain('name="fixtures/a&amp;b &lt;&quot;odd&quot;&gt;"');
    expect(xml).toContain('message="report.md was changed after it was written (sha256 0123…)"');
    expect(xml).not.toContain('\u0001');
  });

  it('the schema is not a rubber stamp: a failure after system-out, or a negative count, is refused', async () => {
    const misplaced = gateJunitXml(run).replace(/(<failure[^>]*>[\s\S]*?<\/failure>)\n(\s*<system-out>[\s\S]*?<\/system-out>)/, '$2\n$1');
    expect(misplaced).not.toBe(gateJunitXml(run));
    expect((await validate(misplaced)).valid).toBe(false);
    expect((await validate(gateJunitXml(run).replace('tests="2"', 'tests="-2"'))).valid).toBe(false);
  });

  it('gate.html lists each fixture with its result, recorded verdict and changes, linking to report.html where there is one', () => {
    const html = gateHtml(run);
    expect(html).toContain('<h1>parity gate: 1 passed, 1 failed</h1>');
    expect(html).toContain('<a href="ok/report.html">fixtures/ok</a>');
    expect(html).toContain('fixtures/a&amp;b &lt;&quot;odd&quot;&gt; <span class="muted">(no report.html)</span>');
    expect(html).toContain('<li>report.md was changed after it was written (sha256 0123…)</li>');
    expect(html).toContain('<td>within-tolerance</td>');
    expect(html).not.toMatch(/<script/);
  });
});

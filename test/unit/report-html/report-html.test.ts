import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ReportPageData } from '../../../electron/common/report/html/report-page-data.js';
import { decodeWav } from '../../../electron/common/wav/decode-wav.js';
import { pageAudio } from '../../../electron/host/report-html/page-audio.js';
import { pageBundle } from '../../../electron/host/report-html/page-bundle.js';
import { renderReportHtml } from '../../../electron/host/report-html/render-report-html.js';
import { RATE, syntheticAudio, syntheticPage } from './synthetic-pair.js';

/** The JSON the page reads, as the browser would take it out of its <script type="application/json">. */
function pageData(html: string): ReportPageData {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no report-data script');
  return JSON.parse(m[1]) as ReportPageData;
}

const page = (markdown?: string, limit?: number): ReportPageData => ({ ...syntheticPage(markdown), audio: pageAudio(syntheticAudio(), -3, limit) });

describe('report.html', () => {
  it('is one file: the page script allowed by its hash, no source outside it, media only from blob:/data:', () => {
    const html = renderReportHtml(page());
    const csp = /content="(default-src 'none'[^"]*)"/.exec(html)?.[1] ?? '';
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toBe(pageBundle().script.replace(/<\/(script)/gi, '<\\/$1'));
    expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(csp).toContain('media-src blob: data:');
    expect(csp).not.toContain('file:');
    // Nothing the browser would fetch: no src/href attribute in the markup and no CSS url() outside data:.
    expect(html.replace(/<script[\s\S]*?<\/script>/g, '')).not.toMatch(/\s(src|href)\s*=/i);
    expect(/<style>([\s\S]*?)<\/style>/.exec(html)?.[1]).not.toMatch(/url\((?!\s*['"]?data:)/i);
  });

  it('has the same bytes for the same inputs', () => {
    expect(renderReportHtml(page())).toBe(renderReportHtml(page()));
  });

  it('keeps text that holds </script> inside its data, so no markup of the report can run', () => {
    const evil = '## x\n</script><script>alert(1)</script> <!-- \u2028';
    const html = renderReportHtml(page(evil));
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(pageData(html).markdown).toBe(evil);
  });

  it('embeds A and B as 16-bit WAVs within one quantisation step, and the difference at full scale', () => {
    const audio = syntheticAudio();
    const data = pageData(renderReportHtml(page()));
    if (!data.audio?.embedded) throw new Error('expected embedded audio');
    const decoded = (b64: string) => decodeWav(new Uint8Array(Buffer.from(b64, 'base64')), 'embedded').channels[0];
    const a = decoded(data.audio.wav.a);
    expect(a.length).toBe(audio.a.length);
    // 16-bit PCM: one step is 2^-15; rounding costs at most one step.
    expect(Math.max(...a.map((v, i) => Math.abs(v - audio.a[i])))).toBeLessThanOrEqual(2 ** -15);
    const diff = decoded(data.audio.wav.diff);
    const peak = Math.max(...diff.map(Math.abs));
    expect(peak).toBeGreaterThan(0.99);
    expect(data.audio.diffMax).toBeCloseTo(Math.max(...audio.diff.map(Math.abs)), 6);
    expect(data.audio.loudnessDeltaLU).toBe(-3);
    expect(data.audio.sampleRate).toBe(RATE);
  });

  it('past the size limit plays the WAVs beside it, says so, and draws from embedded envelopes', () => {
    const html = renderReportHtml(page(undefined, 1000));
    const data = pageData(html);
    if (!data.audio || data.audio.embedded) throw new Error('expected audio beside the page');
    expect(data.audio.note).toContain("past this page's embedding limit");
    expect(data.audio.files).toEqual({ a: 'a.wav', b: 'b.wav', diff: 'diff.wav' });
    expect(data.audio.peaks.a).toHaveLength(2 * 4096);
    expect(html).toContain('media-src blob: data: file:');
  });
});

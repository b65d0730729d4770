import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { GateEntry } from '../../common/report/gate/gate-entry.js';
import { readReportJson } from '../../engine/comparison/read-report-json.js';
import type { FixtureCheck } from '../../engine/comparison/check-fixture.js';

/** The verdict a fixture's report.json recorded when it was written, or null when it cannot be read. */
async function recordedVerdict(dir: string): Promise<string | null> {
  try {
    const verdict = ((await readReportJson(join(dir, 'report.json')))?.report as { verdict?: unknown }).verdict;
    return typeof verdict === 'string' ? verdict : null;
  } catch {
    return null;
  }
}

/** A relative link from the folder of `indexFile` to `target`, with URL separators and escapes. */
function hrefFrom(indexFile: string, target: string): string {
  return relative(dirname(resolve(indexFile)), resolve(target)).split(sep).map(encodeURIComponent).join('/');
}

/** What gate.html and the JUnit XML show of one checked fixture; `indexFile` is where gate.html goes (links are relative to it). */
export async function gateEntry(check: FixtureCheck, seconds: number, indexFile: string | undefined): Promise<GateEntry> {
  const report = join(check.dir, 'report.html');
  return {
    dir: check.dir,
    ok: check.ok,
    summary: check.summary,
    problems: check.problems,
    recordedVerdict: await recordedVerdict(check.dir),
    reportHref: indexFile !== undefined && existsSync(report) ? hrefFrom(indexFile, report) : null,
    seconds,
  };
}

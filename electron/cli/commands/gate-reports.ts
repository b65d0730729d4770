import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { GateEntry } from '../../common/report/gate/gate-entry.js';
import { readFixtureFileSync } from '../../engine/comparison/read-inputs.js';
import type { FixtureCheck } from '../../engine/comparison/check-fixture.js';

/** The verdict a fixture's report.json recorded when it was written, or null when it cannot be read. */
function recordedVerdict(dir: string): string | null {
  try {
    const verdict = (JSON.parse(new TextDecoder().decode(readFixtureFileSync(join(dir, 'report.json')))) as { verdict?: unknown }).verdict;
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
export function gateEntry(check: FixtureCheck, seconds: number, indexFile: string | undefined): GateEntry {
  const report = join(check.dir, 'report.html');
  return {
    dir: check.dir,
    ok: check.ok,
    summary: check.summary,
    problems: check.problems,
    recordedVerdict: recordedVerdict(check.dir),
    reportHref: indexFile !== undefined && existsSync(report) ? hrefFrom(indexFile, report) : null,
    seconds,
  };
}

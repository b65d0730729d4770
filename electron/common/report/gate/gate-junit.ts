import type { GateRun } from './gate-entry.js';

/** XML 1.0 text: the five entities escaped, characters XML cannot hold (most C0 controls) dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (s: number) => s.toFixed(3);

/**
 * `parity gate --junit FILE`: one <testsuite> "parity gate", one <testcase> per fixture (name = the
 * folder), a <failure> per failed fixture whose message is its first problem and whose text lists them
 * all. The structure of the JUnit XML that Jenkins, GitLab, GitHub Actions reporters and Azure read
 * (test/fixtures/junit/junit-ci.xsd checks it).
 */
export function gateJunitXml(run: GateRun): string {
  const failed = run.entries.filter((e) => !e.ok).length;
  const total = run.entries.reduce((t, e) => t + e.seconds, 0);
  const suiteName = run.shard.count > 1 ? `parity gate (shard ${run.shard.index}/${run.shard.count})` : 'parity gate';
  const counts = `tests="${run.entries.length}" failures="${failed}" errors="0" time="${seconds(total)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(suiteName)}" ${counts}>`,
    `  <testsuite name="${xmlText(suiteName)}" ${counts} skipped="0">`,
  ];
  for (const e of run.entries) {
    lines.push(`    <testcase classname="parity.gate" name="${xmlText(e.dir)}" time="${seconds(e.seconds)}">`);
    if (!e.ok) {
      const message = e.problems[0] ?? 'failed';
      lines.push(`      <failure type="regression" message="${xmlText(message)}">${xmlText(e.problems.join('\n'))}</failure>`);
    }
    if (e.summary) lines.push(`      <system-out>${xmlText(e.summary)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

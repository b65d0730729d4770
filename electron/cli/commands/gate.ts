import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { InvalidArgumentError } from 'commander';
import { InputError, ParityError } from '../../common/errors.js';
import { readReportJson } from '../../engine/comparison/read-report-json.js';
import { checkFixture, EngineCache, isWavPairReport, type FixtureCheck } from '../../engine/comparison/check-fixture.js';
import { gateHtml } from '../../common/report/gate/gate-html.js';
import { gateJunitXml } from '../../common/report/gate/gate-junit.js';
import type { GateEntry } from '../../common/report/gate/gate-entry.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { checkOutputFiles, writeOutputFiles } from '../../host/fs/output-files.js';
import { gateEntry } from './gate-reports.js';
import { printOut, printErr, controlErr } from '../print.js';
import { kindOf } from '../../engine/fs/read-checked.js';

interface Shard {
  index: number;
  count: number;
}

function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new InvalidArgumentError(`expected i/n with 1 <= i <= n, e.g. 2/4, found "${text}"`);
  return { index, count };
}

/** Whether `dir`/report.json reads as a WAV-pair report; an unreadable or edited one is left to the check, which names it. */
async function holdsWavPair(dir: string): Promise<boolean> {
  try {
    const read = await readReportJson(join(dir, 'report.json'));
    return read?.report !== undefined && isWavPairReport(read.report);
  } catch {
    return false;
  }
}

/**
 * A folder with report.json is a fixture; otherwise its sub-folders that have one are. Sorted, so shards
 * are stable. A WAV-pair folder (compare-wav --out, a studio export of two WAVs) is refused before any
 * work: it records nothing to re-run, so giving it is a usage mistake, not a regression (exit 2, not 1).
 */
export async function expandFixtures(dirs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new InputError(`${dir}: no such folder`, dir);
    const info = statSync(dir);
    if (!info.isDirectory()) throw new InputError(`${dir}: is ${kindOf(info)}, not a folder; give a fixture folder (with report.json) or a folder of them`, dir);
    if (existsSync(join(dir, 'report.json'))) {
      found.push(dir);
      continue;
    }
    // Hidden names are skipped: `.<name>.tmp-*` folders are what a killed run left half-written. A
    // dangling link is no folder (statSync would throw ENOENT).
    const inside = readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .sort()
      .map((name) => join(dir, name))
      .filter((p) => statSync(p, { throwIfNoEntry: false })?.isDirectory() && existsSync(join(p, 'report.json')));
    if (inside.length === 0) throw new InputError(`${dir}: neither a fixture (no report.json) nor a folder of fixtures`, dir);
    found.push(...inside);
  }
  let wavPair: string | undefined;
  for (const dir of found) if (wavPair === undefined && (await holdsWavPair(dir))) wavPair = dir;
  if (wavPair !== undefined) {
    throw new InputError(
      `${wavPair}: a WAV-pair comparison (parity compare-wav --out, or a studio export of two WAVs), not a gate fixture: it records no synthesis or traces to re-run; gate re-checks folders written by parity compare --out, parity compare-trace --out, or a studio export of a synthesized or trace comparison`,
      wavPair,
    );
  }
  return [...new Set(found)].sort();
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('re-run fixture folders made by compare / compare-trace; exit 1 on any regression or edited file')
    .argument('<dirs...>', 'fixture folders, or folders of fixture folders')
    .option('--shard <i/n>', 'check only the i-th of n equal shares of the sorted fixtures (for parallel CI jobs)', parseShard)
    .option('--bundle <dir>', 'use this bundle folder instead of the one each fixture recorded')
    .option('--json', 'print the results as JSON')
    .option('--html <file>', "write an HTML index (gate.html): each fixture's result, recorded verdict, what changed since it was sealed, and a link to its report.html")
    .option('--junit <file>', 'write the results as JUnit XML (one test case per fixture) for CI systems')
    .option('--force', 'replace the --html and --junit files if they exist')
    .action(
      action('gate', async (dirs: string[], o) => {
        const all = await expandFixtures(dirs);
        // Checked before the (slow) re-runs, and again when written; never a fixture's own file.
        const reports = [
          ...(o.html === undefined ? [] : [{ flag: '--html', path: o.html, render: gateHtml }]),
          ...(o.junit === undefined ? [] : [{ flag: '--junit', path: o.junit, render: gateJunitXml }]),
        ];
        const policy = { force: o.force, inputs: all };
        await checkOutputFiles(reports, policy);
        const mine = o.shard ? all.filter((_, i) => i % o.shard!.count === o.shard!.index - 1) : all;
        const engines = new EngineCache();
        const results: FixtureCheck[] = [];
        const entries: GateEntry[] = [];
        const failedSoFar = () => results.filter((r) => !r.ok).length;
        exitOnInterrupt('gate', () => `${results.length} of ${mine.length} fixtures checked, ${failedSoFar()} failed`);
        // On a terminal, say which fixture is running (a re-run can take minutes on a real model); piped output stays clean.
        const status = (text: string) => {
          if (process.stderr.isTTY) {
            controlErr('\r\x1b[K');
            printErr(text);
          }
        };
        try {
          for (const [i, dir] of mine.entries()) {
            const checking = `gate: checking ${dir} (${i + 1}/${mine.length})`;
            status(`${checking}…`);
            const started = performance.now();
            // A fixture that cannot be read fails alone, with its reason; the others still run.
            const result = await checkFixture(dir, engines, o.bundle, (p) => status(`${checking}: ${p.side} ${p.stage} step ${p.step}/${p.totalSteps}`)).catch(
              (error: unknown): FixtureCheck => {
                if (!(error instanceof ParityError) || error.kind === 'internal' || error.kind === 'cancelled') throw error;
                return { dir, ok: false, summary: '', problems: [error.message] };
              },
            );
            status('');
            results.push(result);
            entries.push(await gateEntry(result, (performance.now() - started) / 1000, o.html));
            if (!o.json) {
              printOut(`${result.ok ? 'PASS' : 'FAIL'} ${dir}${result.summary ? `: ${result.summary}` : ''}\n`);
              for (const p of result.problems) printOut(`  - ${p}\n`);
            }
          }
        } finally {
          await engines.close();
        }
        const failed = results.filter((r) => !r.ok).length;
        const shard = o.shard ? ` (shard ${o.shard.index}/${o.shard.count} of ${all.length} fixtures)` : '';
        // passed + failed = checked (this shard's fixtures); total counts every fixture given, in all shards.
        const counts = { passed: results.length - failed, failed, checked: results.length, total: all.length, shard: o.shard ?? { index: 1, count: 1 } };
        const run = { entries, total: all.length, shard: counts.shard };
        await writeOutputFiles(reports.map((r) => ({ flag: r.flag, path: r.path, data: r.render(run) })), policy);
        if (o.json) printOut(JSON.stringify({ ...counts, results }, null, 2) + '\n');
        else printOut(`gate: ${results.length - failed} passed, ${failed} failed${shard}\n`);
        process.exitCode = failed > 0 ? 1 : 0;
      }),
    );
}

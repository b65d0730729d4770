import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../../common/errors.js';
import { sweepHtml } from '../../common/report/sweep-html/sweep-html.js';
import { mergeShards } from '../../common/sweep/merge-shards.js';
import { renderSweepMarkdown } from '../../common/sweep/sweep-markdown.js';
import { worstCases } from '../../common/sweep/sweep-order.js';
import { stringifySummary, type SweepSummary } from '../../common/sweep/sweep-summary.js';
import { reportPageMissing } from '../../host/report-html/page-bundle.js';
import { readShardFolders } from '../../host/sweep/read-shards.js';
import { writeWorstFixtures } from '../../host/sweep/write-worst-fixtures.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { warnIfNoReportPage } from '../report-page-warning.js';
import { checkOutputFolder, writeOutputFiles } from '../../host/fs/output-files.js';
import { parseInteger } from './compare-options.js';
import { printOut, printErr } from '../print.js';

const DEFAULT_WORST = 5;

function countsLine(s: SweepSummary): string {
  const c = s.counts;
  const step = s.firstStep.mode === null ? '' : `; most frequent first divergent step ${s.firstStep.mode}`;
  return `sweep merge: ${s.cases.length} of ${s.totalCases} cases: ${c.identical} identical, ${c['within-tolerance']} within tolerance, ${c.diverged} diverged${c['degenerate-audio'] ? `, ${c['degenerate-audio']} degenerate audio` : ''}, ${c.error} errors, ${c.missing} missing${step}\n`;
}

/**
 * `parentOut` reads sweep's own --out: the root program does not use positional options, so commander
 * gives `sweep merge ... --out DIR` to the parent command's option of the same name.
 */
export function registerSweepMerge(sweep: Command, parentOut: () => string | undefined): void {
  sweep
    .command('merge')
    .description('merge the shard files of one sweep into sweep.json, sweep.md and sweep.html; re-run the worst cases as comparison fixtures')
    .argument('<dirs...>', 'the --out folders of the shards (all shard-*.jsonl files in them are read)')
    .option('--out <dir>', 'write sweep.json, sweep.md, sweep.html and the worst cases\' fixture folders here')
    .option('--worst <n>', `how many worst cases to name and (profile sweeps) re-run as fixtures (default ${DEFAULT_WORST}; 0 = none)`, parseInteger('a number of cases'))
    .option('--force', 'write into an existing --out folder (its sweep.json, sweep.md, sweep.html and worst-* fixtures are replaced)')
    .option('--json', 'print sweep.json to stdout as well')
    .action(
      action('sweep merge', async (dirs: string[], options) => {
        const out = options.out ?? parentOut();
        if (out === undefined) throw new InputError('give --out DIR, the folder for sweep.json, sweep.md, sweep.html and the worst cases\' fixtures');
        const o = { ...options, out };
        await checkOutputFolder('--out', o.out, { force: o.force });
        exitOnInterrupt('sweep merge');
        const { shards, notes } = readShardFolders(dirs);
        for (const note of notes) printErr(`warning: ${note}\n`);
        const worst = o.worst ?? DEFAULT_WORST;
        let summary = mergeShards(shards, { worst });
        let written: string[] = [];
        if (summary.mode === 'profiles' && worst > 0) {
          const cases = worstCases(summary.cases, worst);
          printErr(`sweep merge: re-running the ${cases.length} worst cases as fixtures\n`);
          warnIfNoReportPage();
          const result = await writeWorstFixtures(summary, cases, o.out, (name) => printErr(`sweep merge: wrote ${join(o.out, name)}/\n`));
          for (const w of result.warnings) printErr(`warning: ${w}\n`);
          summary = mergeShards(shards, { worst, fixtures: result.fixtures });
          written = [...result.fixtures.values()].map((n) => `${n}/`);
        }
        const json = stringifySummary(summary);
        await writeOutputFiles(
          [
            { flag: '--out', path: join(o.out, 'sweep.json'), data: json },
            { flag: '--out', path: join(o.out, 'sweep.md'), data: renderSweepMarkdown(summary) },
            { flag: '--out', path: join(o.out, 'sweep.html'), data: sweepHtml(summary, reportPageMissing() === null ? 'report.html' : 'report.md') },
          ],
          { force: true },
        );
        const p = summary.problems;
        if (p.missingShards.length) printErr(`warning: no file for shard ${p.missingShards.join(', ')} of ${shards[0].header.shard.count}\n`);
        if (p.missing.length) printErr(`warning: ${p.missing.length} planned cases are in no shard file (e.g. ${p.missing[0]}); run their shards again to resume\n`);
        if (p.duplicates.length) printErr(`warning: ${p.duplicates.length} cases are in more than one shard file with the same result (e.g. ${p.duplicates[0]}); kept once\n`);
        if (p.conflicts.length) printErr(`warning: ${p.conflicts.length} cases are in more than one shard file with different results (e.g. ${p.conflicts[0]}); the first file's is kept\n`);
        if (o.json) printOut(json);
        else printOut(`${countsLine(summary)}wrote ${o.out.replace(/[\\/]+$/, '')}/ (${['sweep.json', 'sweep.md', 'sweep.html', ...written].join(', ')})\n`);
      }),
    );
}

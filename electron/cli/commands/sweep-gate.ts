import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { InvalidArgumentError } from 'commander';
import { InputError } from '../../common/errors.js';
import { mergeShards } from '../../common/sweep/merge-shards.js';
import { gateSweep, SweepThresholds } from '../../common/sweep/sweep-gate.js';
import { checkSummaryCounts } from '../../common/sweep/summary-counts.js';
import { SweepSummary } from '../../common/sweep/sweep-summary.js';
import { readFileChecked } from '../../engine/comparison/read-inputs.js';
import { readShardFolders } from '../../host/sweep/read-shards.js';
import { action } from '../fail.js';
import { parseInteger } from './compare-options.js';
import { printOut } from '../print.js';

function fraction(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new InvalidArgumentError(`expected a fraction in [0, 1], e.g. 0.05, found "${text}"`);
  return value;
}

function correlation(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < -1 || value > 1) throw new InvalidArgumentError(`expected a correlation in [-1, 1], found "${text}"`);
  return value;
}

async function readJson(path: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(await readFileChecked(path)));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: not valid JSON (${what})`, path);
  }
}

function schemaProblem(path: string, what: string, issue: { path: PropertyKey[]; message: string }): InputError {
  return new InputError(`${path}: not ${what} (${issue.path.map(String).join('.') || 'top level'}: ${issue.message})`, path);
}

/** A merged folder's sweep.json, a sweep.json itself, or a folder of shard files (merged here). */
async function readSummary(target: string): Promise<SweepSummary> {
  const file = existsSync(target) && statSync(target).isFile() ? target : join(target, 'sweep.json');
  if (!existsSync(file)) return mergeShards(readShardFolders([target]).shards, { worst: 0 });
  const parsed = SweepSummary.safeParse(await readJson(file, 'expected sweep.json from parity sweep merge'));
  if (!parsed.success) throw schemaProblem(file, 'a sweep summary', parsed.error.issues[0]);
  checkSummaryCounts(parsed.data, file);
  return parsed.data;
}

export function registerSweepGate(sweep: Command): void {
  sweep
    .command('gate')
    .description('check a merged sweep (or a folder of shard files) against thresholds; exit 1 when any is exceeded')
    .argument('<dir>', 'the --out folder of sweep merge (sweep.json), the sweep.json itself, or a folder of shard files')
    .option('--max-diverged-rate <x>', 'most diverged cases allowed, as a fraction of the cases run', fraction)
    .option('--max-outliers <k>', 'most outliers allowed (correlation below --outlier-corr, not finite, or an error)', parseInteger('a number of cases'))
    .option('--outlier-corr <c>', 'correlation below which a case is an outlier (default 0.9)', correlation)
    .option('--max-errors <k>', 'most cases whose comparison failed (default 0)', parseInteger('a number of cases'))
    .option('--max-missing <k>', 'most cases missing from the shards (default 0)', parseInteger('a number of cases'))
    .option('--thresholds <file>', 'the same thresholds as JSON: {"maxDivergedRate", "maxOutliers", "outlierCorrelation", "maxErrors", "maxMissing"}; flags win')
    .option('--json', 'print the checks as JSON')
    .action(
      action('sweep gate', async (dir: string, o) => {
        const fromFile = o.thresholds === undefined ? {} : await readJson(o.thresholds, 'expected sweep gate thresholds');
        const flags = { maxDivergedRate: o.maxDivergedRate, maxOutliers: o.maxOutliers, outlierCorrelation: o.outlierCorr, maxErrors: o.maxErrors, maxMissing: o.maxMissing };
        const defined = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
        const parsed = SweepThresholds.safeParse({ ...(fromFile as object), ...defined });
        if (!parsed.success) throw schemaProblem(o.thresholds ?? 'thresholds', 'sweep gate thresholds', parsed.error.issues[0]);
        const t = parsed.data;
        if (t.maxDivergedRate === undefined && t.maxOutliers === undefined) throw new InputError('give at least one threshold: --max-diverged-rate X or --max-outliers K (or a --thresholds file with maxDivergedRate or maxOutliers)');
        const result = gateSweep(await readSummary(dir), t);
        if (o.json) printOut(JSON.stringify({ ...result, thresholds: t }, null, 2) + '\n');
        else {
          for (const c of result.checks) printOut(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}\n`);
          if (t.maxOutliers !== undefined && result.outliers.length > 0) printOut(`outliers: ${result.outliers.slice(0, 10).join(', ')}${result.outliers.length > 10 ? `, … (${result.outliers.length} in all)` : ''}\n`);
          const failed = result.checks.filter((c) => !c.ok).length;
          printOut(`sweep gate: ${failed === 0 ? 'passed' : `failed (${failed} of ${result.checks.length} checks)`}\n`);
        }
        process.exitCode = result.ok ? 0 : 1;
      }),
    );
}

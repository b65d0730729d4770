import type { Command } from '@commander-js/extra-typings';
import { noFaultApplied } from '../../common/forensics/fault-outcomes.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { renderComparisonMarkdown } from '../../common/report/comparison-markdown.js';
import { profileComparisonView } from '../../common/report/comparison-view.js';
import { runBaseline } from '../../engine/comparison/baseline-runs.js';
import { compareProfiles } from '../../engine/comparison/compare-profiles.js';
import { profileFixtureFiles } from '../../engine/comparison/comparison-files.js';
import { openEngine } from '../../engine/comparison/open-engine.js';
import { DEFAULT_DRILL_TOLERANCE, drillDivergence } from '../../engine/drill/drill-step.js';
import { reportTime } from '../../engine/comparison/read-inputs.js';
import { checkFixtureTarget, writeFixtureFolder } from '../../host/fixture/write-fixture-folder.js';
import { parityCommand } from '../../host/parity-command.js';
import { shareableFiles, withFigureLinks } from '../../host/report-html/shareable-files.js';
import { action } from '../fail.js';
import { exitOnInterrupt } from '../interrupt.js';
import { warnIfNoReportPage } from '../report-page-warning.js';
import { OUT_DIR, wroteFolderLine } from '../write-output.js';
import {
  addSamplingOptions,
  addVerdictOptions,
  failOnStatus,
  nonNegative,
  parseSeed,
  samplingFrom,
  tolerancesFrom,
} from './compare-options.js';
import { renderComparisonText } from './comparison-format.js';
import { compareEndpointSides } from './compare-endpoints.js';
import { addAllowHostOption, endpointPair, refuseEngineFlags } from './endpoint-options.js';
import { lazyProgressBar } from './progress-bar.js';
import { processSpectralRunner } from '../../host/spectral/process-spectral-thread.js';
import { printOut, printErr } from '../print.js';

export function registerCompare(program: Command): void {
  const command = program
    .command('compare')
    .description('render one prompt with two execution profiles and report where and how much they differ')
    .requiredOption('--text <text>', 'the prompt')
    .requiredOption('--a <profile>', 'profile A, e.g. eager or graph, or a speech endpoint: endpoint=http://127.0.0.1:8091,model=… (docs/deployments.md)')
    .requiredOption('--b <profile>', 'profile B, e.g. graph,vocoder=stream, or a second endpoint')
    .option('--bundle <dir>', 'bundle folder (default: the built-in demo bundle)')
    .option('--seed <n>', 'sampler seed (default 0)', parseSeed)
    .option('--out <dir>', 'write a.wav, b.wav, diff.wav, a.jsonl, b.jsonl, report.json, report.md (with PNG figures) and report.html into this new folder')
    .option('--force', 'replace the --out folder if it exists')
    .option('--json', 'print the report as JSON instead of the summary')
    .option('--teacher-force', "feed B A's codes at every step: B's own per-step drift and would-flip steps, without the cascade after a first flip")
    .option('--baseline', 'also run A and B a second time each and report run-to-run nondeterminism apart from A vs B')
    .option('--drill', 're-run the first divergent step with every node output promoted to a graph output; report the first input and node that differ or hold a NaN')
    .option('--drill-tol <x>', 'per-element absolute tolerance of --drill (default 1e-4)', nonNegative('a tolerance'));
  addAllowHostOption(addSamplingOptions(addVerdictOptions(command))).action(
    action('compare', async (o) => {
      const endpoints = endpointPair(o.a, o.b);
      if (endpoints) {
        refuseEngineFlags(o, { bundle: '--bundle', teacherForce: '--teacher-force', baseline: '--baseline', drill: '--drill', drillTol: '--drill-tol', logitTol: '--logit-tol', logitRelTol: '--logit-rel-tol', nearTieGap: '--near-tie-gap' });
        return compareEndpointSides(endpoints, { ...o, seed: o.seed ?? 0, sampling: samplingFrom(o) });
      }
      // Parse first, so a bad profile fails before the bundle is built or opened.
      parseProfile(o.a);
      parseProfile(o.b);
      if (o.out !== undefined) {
        await checkFixtureTarget(o.out, { force: o.force, words: OUT_DIR });
        warnIfNoReportPage();
      }
      exitOnInterrupt('compare');
      const sampling = samplingFrom(o);
      const { engine, bundle } = await openEngine(o.bundle);
      const bar = o.json ? lazyProgressBar('') : lazyProgressBar('compare');
      try {
        const request = { text: o.text, profileA: o.a, profileB: o.b, seed: o.seed ?? 0, sampling, bundle, tolerances: tolerancesFrom(o), maxLagMs: o.maxLagMs, teacherForce: o.teacherForce };
        const comparison = await compareProfiles(engine, request, {
          createdAt: reportTime(),
          onProgress: (p) => bar.update(`${p.side} ${p.stage}`, p.step, p.totalSteps),
          spectral: processSpectralRunner(),
        });
        const { report } = comparison;
        if (o.baseline) {
          report.baseline = await runBaseline(engine, request, comparison, { onProgress: (p) => bar.update(`${p.side} run 2 ${p.stage}`, p.step, p.totalSteps) });
          report.rerun.baseline = true;
        }
        bar.stop();
        if (o.drill) {
          const tolerance = { ...DEFAULT_DRILL_TOLERANCE, ...(o.drillTol === undefined ? {} : { abs: o.drillTol }) };
          // On a terminal the status line follows the drill (side re-run, promote, run k of n), as for the comparison.
          const drillBar = o.json ? lazyProgressBar('') : lazyProgressBar('drill');
          try {
            report.drill = await drillDivergence(
              engine, { text: o.text, profileA: o.a, profileB: o.b, seed: report.rerun.seed, sampling, tolerance }, report.divergence,
              { onProgress: (p) => drillBar.update(p.part === 'record' ? `re-run ${p.side}` : p.part, Math.round(p.fraction * 100), 100) },
            );
          } finally {
            drillBar.stop();
          }
          report.rerun.drill = o.drillTol === undefined ? {} : { tolerance: o.drillTol };
        }
        const view = profileComparisonView(report, o.out, parityCommand());
        // report.html and the PNGs are views of the sealed files, added after the seal (docs/report-format.md).
        const shared = { report, frameRate: report.a.frameRate, audio: { a: comparison.resultA.audio, b: comparison.resultB.audio, diff: comparison.diff, sampleRate: comparison.resultA.sampleRate } };
        const markdown = withFigureLinks(renderComparisonMarkdown(view), shared);
        const files = o.out === undefined ? undefined : { ...profileFixtureFiles(comparison, markdown, o.out), ...(await shareableFiles({ ...shared, markdown })) };
        if (o.out !== undefined && files) await writeFixtureFolder(o.out, files, { force: o.force, words: OUT_DIR });
        printOut(o.json ? stringifyReport(report) + '\n' : renderComparisonText(view));
        if (o.out !== undefined && files && !o.json) printOut(`\n${wroteFolderLine(o.out, Object.keys(files))}`);
        for (const w of view.warnings ?? []) printErr(`warning: ${w}\n`);
        // Faults asked for and none acted: the comparison does not test what was asked (docs/faults.md).
        const faults = [...(report.a.faults ?? []), ...(report.b.faults ?? [])];
        if (noFaultApplied(faults)) {
          printErr(`parity compare: none of the requested faults was applied (${faults.map((f) => f.fault).join(', ')}); exit 2\n`);
          process.exitCode = 2;
        } else process.exitCode = failOnStatus(report.verdict, o.failOn);
      } finally {
        bar.stop();
        await engine.close();
      }
    }),
  );
}

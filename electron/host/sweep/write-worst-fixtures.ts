import { join } from 'node:path';
import { renderComparisonMarkdown } from '../../common/report/comparison-markdown.js';
import { profileComparisonView } from '../../common/report/comparison-view.js';
import type { SummaryCase, SweepSummary } from '../../common/sweep/sweep-summary.js';
import { worstFixtureName } from '../../common/sweep/sweep-order.js';
import { caseKey } from '../../common/sweep/sweep-case.js';
import { Sampling } from '../../common/api/primitives.js';
import { compareProfiles } from '../../engine/comparison/compare-profiles.js';
import { profileFixtureFiles } from '../../engine/comparison/comparison-files.js';
import { openEngine } from '../../engine/comparison/open-engine.js';
import { reportTime } from '../../engine/comparison/read-inputs.js';
import { writeFixtureFolder, type FixtureTargetWords } from '../fixture/write-fixture-folder.js';
import { parityCommand } from '../parity-command.js';
import { shareableFiles, withFigureLinks } from '../report-html/shareable-files.js';

export interface WorstFixtures {
  /** Fixture folder (relative to the merge's folder) by case key. */
  fixtures: Map<string, string>;
  /** A re-run that disagrees with its sweep line (a non-deterministic engine, or another bundle). */
  warnings: string[];
}

const WORDS: FixtureTargetWords = { target: '--out DIR', allowReplace: 'pass --force' };

/**
 * Re-runs the worst cases of a profile sweep and writes each as the fixture `parity compare --out` writes
 * (with report.html and the PNG figures) under `dir`, named by worstFixtureName, so `parity gate` and the
 * studio can open them. Without a built report page the fixture has no report.html (`shareableFiles`; the
 * CLI warns once before the re-runs).
 * A case that errored in the sweep is skipped (it has no comparison to write). Trace sweeps have nothing to
 * re-run: the caller does not call this for them.
 */
export async function writeWorstFixtures(summary: SweepSummary, worst: SummaryCase[], dir: string, onFixture?: (name: string) => void): Promise<WorstFixtures> {
  const fixtures = new Map<string, string>();
  const warnings: string[] = [];
  const runnable = worst.filter((c) => c.verdict !== 'error' && c.text !== undefined && c.seed !== null);
  if (runnable.length === 0) return { fixtures, warnings };
  const { engine, bundle } = await openEngine(summary.bundle);
  try {
    for (const [i, c] of runnable.entries()) {
      const name = worstFixtureName(i + 1, c);
      const comparison = await compareProfiles(
        engine,
        { text: c.text!, profileA: summary.a, profileB: summary.b, seed: c.seed!, sampling: summary.sampling ?? Sampling.parse({}), bundle },
        { createdAt: reportTime() },
      );
      const { report } = comparison;
      if (report.verdict !== c.verdict || report.divergence.firstStep !== c.firstStep) {
        warnings.push(
          `${caseKey(c)}: the re-run gave ${report.verdict} at step ${report.divergence.firstStep ?? '—'}, the sweep ${c.verdict} at step ${c.firstStep ?? '—'} (is the engine deterministic, and the bundle the same?)`,
        );
      }
      const target = join(dir, name);
      // As parity compare --out: report.html and the PNGs are views of the sealed files, added after the seal.
      const shared = { report, frameRate: report.a.frameRate, audio: { a: comparison.resultA.audio, b: comparison.resultB.audio, diff: comparison.diff, sampleRate: comparison.resultA.sampleRate } };
      const markdown = withFigureLinks(renderComparisonMarkdown(profileComparisonView(report, target, parityCommand())), shared);
      const files = { ...profileFixtureFiles(comparison, markdown, target), ...(await shareableFiles({ ...shared, markdown })) };
      await writeFixtureFolder(target, files, { force: true, words: WORDS });
      fixtures.set(caseKey(c), name);
      onFixture?.(name);
    }
  } finally {
    await engine.close();
  }
  return { fixtures, warnings };
}

import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { commandPath, gateCommand, renderComparisonMarkdown, rerunFolder, type ComparisonView } from '../../../../electron/common/report/comparison-markdown.js';
import { compareCommand } from '../../../../electron/common/report/comparison-view.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { DEFAULT_TOLERANCES } from '../../../../electron/common/forensics/tolerances.js';
import type { ComparisonReport } from '../../../../electron/common/report/comparison-report.js';
import { makeSteps } from '../forensics/synthetic-trace.js';

const RERUN: ComparisonReport['rerun'] = { text: 'hi', bundle: 'demo', bundleHash: 'h', profileA: 'eager', profileB: 'graph', seed: 0, sampling: GREEDY, tolerances: DEFAULT_TOLERANCES, versions: {} };

const steps = makeSteps(3, 4);
const view = (extra: Partial<ComparisonView>): ComparisonView => ({
  title: 'Parity report: graph vs graph',
  sides: ['A: graph', 'B: graph'],
  verdict: 'identical',
  divergence: localise(steps, steps),
  command: 'parity compare --text hi --a graph --b graph --seed 0 --out cmp1-rerun',
  footer: 'tool',
  ...extra,
});

describe('report.md reproduce section', () => {
  it('sends a reproduce --out beside the written folder, never onto it (which exists, so --out would refuse it)', () => {
    expect(rerunFolder('cmp1')).toBe('cmp1-rerun');
    expect(rerunFolder('out/cmp1/')).toBe('out/cmp1-rerun');
    expect(rerunFolder('/data/exports/run 1')).toBe('/data/exports/run 1-rerun');
    expect(gateCommand('/data/exports/run 1')).toBe("parity gate '/data/exports/run 1'");
    // From a checkout the host passes `node <launcher>`; each word is quoted where the shell needs it.
    expect(gateCommand('cmp1', { words: ['node', '/home/me/my work/bin/parity.js'] })).toBe("node '/home/me/my work/bin/parity.js' gate cmp1");
  });

  it('names paths absolute against the folder they were given from, so a pasted line runs from any folder', () => {
    const where = { words: ['parity'], cwd: '/tmp/trial 3/' };
    expect(commandPath(where, 'fx1')).toBe('/tmp/trial 3/fx1');
    expect(commandPath(where, './small')).toBe('/tmp/trial 3/small');
    expect(commandPath(where, '../bundles/x')).toBe('/tmp/trial 3/../bundles/x');
    expect(commandPath(where, '/abs/x')).toBe('/abs/x');
    expect(commandPath({ words: ['parity'], cwd: 'C:\\work' }, 'D:\\b')).toBe('D:\\b');
    expect(commandPath({ words: ['parity'] }, 'fx1')).toBe('fx1'); // no cwd known: as given
    expect(gateCommand('fx1', where)).toBe("parity gate '/tmp/trial 3/fx1'");
    expect(compareCommand({ ...RERUN, bundle: 'small' }, 'fx1-rerun', where)).toMatch(/ --bundle '\/tmp\/trial 3\/small' .*--out '\/tmp\/trial 3\/fx1-rerun'$/);
    expect(compareCommand({ ...RERUN, bundle: 'demo' }, 'fx1-rerun', where)).not.toContain('--bundle');
    expect(compareCommand(RERUN, undefined, where)).toMatch(/ --out DIR$/); // no folder: the placeholder stays a placeholder
  });

  it('shows the gate as the re-check of the folder itself, when the report.md was written into one', () => {
    const md = renderComparisonMarkdown(view({ recheck: gateCommand('cmp1') }));
    const reproduce = md.slice(md.indexOf('### Reproduce'));
    expect(reproduce).toBe(
      '### Reproduce\n\n```sh\nparity compare --text hi --a graph --b graph --seed 0 --out cmp1-rerun\n```\n\n' +
        'Re-check this folder (re-runs the comparison and compares it with the files stored here; exit 1 on a regression):\n\n' +
        '```sh\nparity gate cmp1\n```\n\n_tool_\n',
    );
    expect(renderComparisonMarkdown(view({}))).not.toContain('parity gate');
  });
});

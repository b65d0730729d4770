import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { gateCommand, renderComparisonMarkdown, rerunFolder, type ComparisonView } from '../../../../electron/common/report/comparison-markdown.js';
import { makeSteps } from '../forensics/synthetic-trace.js';

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

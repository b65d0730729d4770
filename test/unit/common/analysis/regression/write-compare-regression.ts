/** Writes compare-regression.json (see compare-cases.ts): run once, from the commit whose outputs are pinned. */
import { writeFileSync } from 'node:fs';
import { compareSignals } from '../../../../../electron/common/analysis/compare.js';
import { stringifyReport } from '../../../../../electron/common/report/json-number.js';
import { regressionCases } from './compare-cases.js';

const out: Record<string, unknown> = {};
for (const c of regressionCases())
  out[c.name] = await compareSignals(c.a, c.b, c.sampleRate, { maxLagMs: c.maxLagMs });
writeFileSync(new URL('./compare-regression.json', import.meta.url), stringifyReport(out) + '\n');

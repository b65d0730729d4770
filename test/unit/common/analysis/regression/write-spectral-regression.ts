/** Writes spectral-regression.json (see spectral-cases.ts): run once, from the commit whose outputs are pinned. */
import { writeFileSync } from 'node:fs';
import { initFft } from '../../../../../electron/common/analysis/fft.js';
import { spectralDistances } from '../../../../../electron/common/analysis/spectral.js';
import { spectralCases } from './spectral-cases.js';

await initFft();
const out: Record<string, unknown> = {};
for (const c of spectralCases()) out[c.name] = spectralDistances(c.pairs, c.sampleRate);
writeFileSync(new URL('./spectral-regression.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');

import { parseProfile } from '../../common/profile/parse-profile.js';
import { GREEDY } from '../../common/sampling/types.js';
import { Engine } from '../../engine/engine.js';
import { printOut } from '../print.js';

/**
 * Child process of the lazy-table bench (run with --expose-gc): RSS before Engine.open, after it and
 * after one synthesis, each after a full GC, as one JSON line on stdout.
 */
const dir = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);
const rssMb = (): number => {
  gc();
  return process.memoryUsage.rss() / (1024 * 1024);
};
const before = rssMb();
const t0 = performance.now();
const engine = await Engine.open(dir);
const openMs = performance.now() - t0;
const opened = rssMb();
await engine.synthesize({ text: 'hello there', profile: parseProfile('eager'), seed: 0, sampling: GREEDY, speaker: 'vivian' });
const synthesized = rssMb();
await engine.close();
printOut(JSON.stringify({ before, opened, synthesized, openMs }) + '\n');

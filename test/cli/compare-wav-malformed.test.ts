import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goodWav, malformedWavs } from '../unit/common/wav/malformed-wavs.js';
import { mapLimit, runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Node with this CLI loaded peaks near 60 MiB here when it refuses a file (80 MiB comparing two 2 s
// files). maxRSS counts touched pages only, so it catches a decoder that sizes and fills buffers from
// a declared size: two cases declare 2 GiB and 4 GiB in files of a few hundred bytes.
const RSS_LIMIT_MIB = 250;

describe('parity compare-wav on malformed WAV files', () => {
  it(`each of the ${malformedWavs.length} malformed files gives exit 2 and one stderr line naming the file, within limits`, async () => {
    expect(malformedWavs.length).toBeGreaterThanOrEqual(20);
    const good = join(dir, 'good.wav');
    writeFileSync(good, goodWav);
    const runs = await mapLimit(malformedWavs, 2, async (m) => {
      const file = join(dir, `${m.name.replace(/[^a-z0-9]+/gi, '-')}.wav`);
      writeFileSync(file, m.bytes);
      // The bad file is B here and A in half of the cases, so both positions are exercised.
      const asA = m.name.length % 2 === 0;
      const run = await runParity(['compare-wav', ...(asA ? [file, good] : [good, file])], { timeoutMs: 20_000 });
      return { m, file, run };
    });
    for (const { m, file, run } of runs) {
      const label = `${m.name}: ${JSON.stringify(run.stderr)}`;
      expect(run.signal, label).toBeNull();
      expect(run.status, label).toBe(2);
      expect(run.stdout, label).toBe('');
      const lines = run.stderr.split('\n').filter((l) => l !== '');
      expect(lines, label).toHaveLength(1);
      expect(lines[0], label).toContain(`parity compare-wav: ${file}: `);
      expect(lines[0], label).toMatch(m.problem);
      expect(run.maxRssMiB, label).toBeLessThan(RSS_LIMIT_MIB);
    }
  });
});

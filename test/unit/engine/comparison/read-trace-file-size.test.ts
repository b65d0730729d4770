import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TRACE_BYTES } from '../../../../electron/engine/comparison/read-inputs.js';
import { readTraceFile } from '../../../../electron/engine/comparison/stream-trace.js';

const dir = mkdtempSync(join(tmpdir(), 'trace-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readTraceFile size limit', () => {
  it('refuses a trace past the limit in one line before reading it (a sparse file: no disk or memory used)', async () => {
    const path = join(dir, 'huge.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, '{"schema":"tts-parity-trace/1"}', MAX_TRACE_BYTES); // one byte past the limit, the rest a hole
    closeSync(fd);
    const before = process.memoryUsage().rss;
    await expect(readTraceFile(path)).rejects.toThrow(`${path}: ${MAX_TRACE_BYTES + 31} bytes, larger than the 256 MiB a trace may have (about 100,000 steps); split the run or trace fewer steps`);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 2 ** 20);
  });
});

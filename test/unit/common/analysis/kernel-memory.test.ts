import { describe, expect, it } from 'vitest';
import { kernelInstances } from '../../../../electron/common/analysis/kernel-memory.js';
import { exactSumsWasm } from '../../../../electron/common/analysis/wasm/exact-sums.wasm.js';

describe('kernelInstances', () => {
  it('serves a larger size by a new memory, never growing (which would detach the old buffer)', () => {
    const instances = kernelInstances(exactSumsWasm)!;
    const small = instances(100);
    const buffer = small.memory.buffer;
    expect(instances(65536)).toBe(small);
    const large = instances(65537);
    expect(large.memory).not.toBe(small.memory);
    expect(large.memory.buffer.byteLength).toBe(2 * 65536);
    expect(buffer.byteLength).toBe(65536);
    expect(instances(1000)).toBe(large);
  });
});

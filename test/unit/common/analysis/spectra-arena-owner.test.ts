import { describe, expect, it } from 'vitest';
import {
  claimSpectraArena,
  releaseSpectraArena,
  spectraMemory,
} from '../../../../electron/common/analysis/spectra-memory.js';

// One session at a time keeps its spectra in the shared memory; another in flight gets storage of its
// own, and a session that has released it (or was dropped) leaves it to the next.
describe('the spectra arena has one owner at a time', () => {
  const inSharedMemory = (a: Float64Array) => a.buffer === spectraMemory()?.buffer;

  it('a second owner gets its own array, with its values kept as it grows, until the first releases', () => {
    const first = {};
    const second = {};
    const arena = claimSpectraArena(first, 100, undefined);
    expect(inSharedMemory(arena)).toBe(true);
    const own = claimSpectraArena(second, 50, undefined);
    expect(inSharedMemory(own)).toBe(false);
    own[49] = 7;
    const grown = claimSpectraArena(second, 80, own);
    expect(inSharedMemory(grown)).toBe(false);
    expect(grown[49]).toBe(7);
    // The first owner keeps the shared arena across its own calls.
    expect(inSharedMemory(claimSpectraArena(first, 120, arena))).toBe(true);
    releaseSpectraArena(second); // not the holder: nothing changes
    expect(inSharedMemory(claimSpectraArena({}, 10, undefined))).toBe(false);
    releaseSpectraArena(first);
    // A session that began on its own array stays on it, even once the shared one is free.
    expect(claimSpectraArena(second, 80, grown)).toBe(grown);
    const third = {};
    expect(inSharedMemory(claimSpectraArena(third, 10, undefined))).toBe(true);
    releaseSpectraArena(third);
  });
});

import { describe, expect, it } from 'vitest';
import { codesCellText, gridCellAfterKey } from '../../../renderer/src/lib/grid-keys.js';

const key = (k: string, ctrlKey = false, metaKey = false) => ({ key: k, ctrlKey, metaKey });
// 115 frames (the demo bundle's frame cap) × 16 codebooks.
const F = 115;
const Q = 16;

describe('gridCellAfterKey (WAI-ARIA APG grid: arrows, Home/End, Ctrl+Home/End, no wrap)', () => {
  it('arrows move a frame (columns) or a codebook (rows)', () => {
    const c = { frame: 10, codebook: 3 };
    expect(gridCellAfterKey(c, F, Q, key('ArrowRight'))).toEqual({ frame: 11, codebook: 3 });
    expect(gridCellAfterKey(c, F, Q, key('ArrowLeft'))).toEqual({ frame: 9, codebook: 3 });
    expect(gridCellAfterKey(c, F, Q, key('ArrowDown'))).toEqual({ frame: 10, codebook: 4 });
    expect(gridCellAfterKey(c, F, Q, key('ArrowUp'))).toEqual({ frame: 10, codebook: 2 });
  });

  it('stops at every edge (the key is still taken: the same cell comes back)', () => {
    expect(gridCellAfterKey({ frame: 1, codebook: 0 }, F, Q, key('ArrowLeft'))).toEqual({ frame: 1, codebook: 0 });
    expect(gridCellAfterKey({ frame: 1, codebook: 0 }, F, Q, key('ArrowUp'))).toEqual({ frame: 1, codebook: 0 });
    expect(gridCellAfterKey({ frame: F, codebook: Q - 1 }, F, Q, key('ArrowRight'))).toEqual({ frame: F, codebook: Q - 1 });
    expect(gridCellAfterKey({ frame: F, codebook: Q - 1 }, F, Q, key('ArrowDown'))).toEqual({ frame: F, codebook: Q - 1 });
  });

  it('Home/End go to the ends of the row; with Ctrl or ⌘ to the first/last cell; PageUp/PageDown ten frames', () => {
    const c = { frame: 50, codebook: 7 };
    expect(gridCellAfterKey(c, F, Q, key('Home'))).toEqual({ frame: 1, codebook: 7 });
    expect(gridCellAfterKey(c, F, Q, key('End'))).toEqual({ frame: F, codebook: 7 });
    expect(gridCellAfterKey(c, F, Q, key('Home', true))).toEqual({ frame: 1, codebook: 0 });
    expect(gridCellAfterKey(c, F, Q, key('End', false, true))).toEqual({ frame: F, codebook: Q - 1 });
    expect(gridCellAfterKey(c, F, Q, key('PageDown'))).toEqual({ frame: 60, codebook: 7 });
    expect(gridCellAfterKey({ frame: 4, codebook: 7 }, F, Q, key('PageUp'))).toEqual({ frame: 1, codebook: 7 });
  });

  it('other keys, and an empty grid, give nothing', () => {
    for (const k of ['Enter', 'Tab', ' ', 'a']) expect(gridCellAfterKey({ frame: 2, codebook: 1 }, F, Q, key(k))).toBeUndefined();
    expect(gridCellAfterKey({ frame: 1, codebook: 0 }, 0, Q, key('ArrowRight'))).toBeUndefined();
  });
});

describe('codesCellText (the readout the hover and the keyboard share)', () => {
  // 2 frames × 2 codebooks, row-major [frame, codebook]; B differs at frame 2 codebook 1; −1 = no code.
  const codes = { frames: 2, q: 2, a: Int32Array.from([5, 1, 7, 2]), b: Int32Array.from([5, 1, 7, -1]) };
  it('names the cell and both codes; a difference is marked, a missing code is a dash', () => {
    expect(codesCellText(codes, { frame: 1, codebook: 1 })).toBe('frame 1, codebook 1: A 1 · B 1');
    expect(codesCellText(codes, { frame: 2, codebook: 1 })).toBe('frame 2, codebook 1: A 2 · B —  (differ)');
  });
});

/** A cell of the codes grid: frame numbered from 1 (frame N comes from step N), codebook from 0. */
export interface GridCell {
  frame: number;
  codebook: number;
}

/** What a key press on the grid carries. */
export interface GridKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * The cell a key moves to in the frames × codebooks grid (WAI-ARIA APG grid navigation): Left/Right a
 * frame, Up/Down a codebook, stopping at the edges; Home/End the first/last frame of the row; Ctrl (⌘)
 * + Home/End the first/last cell; PageUp/PageDown ten frames. Undefined for any other key; at an edge
 * the same cell (the key is still the grid's, so the page does not scroll).
 */
export function gridCellAfterKey(cell: GridCell, frames: number, q: number, e: GridKey): GridCell | undefined {
  if (frames < 1 || q < 1) return undefined;
  const at = (frame: number, codebook: number) => ({ frame: Math.max(1, Math.min(frames, frame)), codebook: Math.max(0, Math.min(q - 1, codebook)) });
  const mod = e.ctrlKey || e.metaKey;
  const { frame, codebook } = cell;
  switch (e.key) {
    case 'ArrowRight':
      return at(frame + 1, codebook);
    case 'ArrowLeft':
      return at(frame - 1, codebook);
    case 'ArrowDown':
      return at(frame, codebook + 1);
    case 'ArrowUp':
      return at(frame, codebook - 1);
    case 'PageDown':
      return at(frame + 10, codebook);
    case 'PageUp':
      return at(frame - 10, codebook);
    case 'Home':
      return mod ? at(1, 0) : at(1, codebook);
    case 'End':
      return mod ? at(frames, q - 1) : at(frames, codebook);
    default:
      return undefined;
  }
}

/** The codes matrix of a comparison: [frames, q] row-major, −1 where a side has no code. */
export interface CodesMatrix {
  frames: number;
  q: number;
  a: Int32Array;
  b: Int32Array;
}

/** The readout for one cell, as the hover and the keyboard show it: "frame 3, codebook 1: A 7 · B 9  (differ)". */
export function codesCellText(codes: CodesMatrix, cell: GridCell): string {
  const i = (cell.frame - 1) * codes.q + cell.codebook;
  const show = (v: number) => (v < 0 ? '—' : String(v));
  return `frame ${cell.frame}, codebook ${cell.codebook}: A ${show(codes.a[i])} · B ${show(codes.b[i])}${codes.a[i] === codes.b[i] ? '' : '  (differ)'}`;
}

/**
 * The part of the Canvas 2D API the drawing functions use. The browser's CanvasRenderingContext2D (the
 * studio's lanes, report.html) and @napi-rs/canvas's context (the PNGs beside report.md) both satisfy it,
 * so every figure is drawn by the same functions. Declared here because common sees no DOM types.
 */
export interface DrawContext {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textAlign: 'left' | 'right' | 'center' | 'start' | 'end';
  textBaseline: 'top' | 'middle' | 'bottom' | 'alphabetic' | 'hanging' | 'ideographic';
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, radius: number, startAngle: number, endAngle: number): void;
  closePath(): void;
  fill(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
}

/** RGBA pixels, 0..255, as ImageData holds them (a spectrogram is painted pixel by pixel). */
export interface PixelImage {
  width: number;
  height: number;
  data: { [index: number]: number; length: number };
}

/** A context that can also put pixels (both canvases can), each with its own ImageData type `I`. */
export interface PixelContext<I extends PixelImage = PixelImage> extends DrawContext {
  createImageData(width: number, height: number): I;
  putImageData(image: I, x: number, y: number): void;
}

/** A figure's size in CSS pixels. */
export interface DrawBox {
  width: number;
  height: number;
}

/**
 * The colours (and the font) a drawing uses. The studio reads them from its theme; report.html and the
 * PNGs use FIGURE_PALETTE, fixed so a PNG has the same bytes whatever the machine's theme.
 */
export interface Palette {
  background: string;
  fg: string;
  muted: string;
  grid: string;
  a: string;
  b: string;
  diff: string;
  marker: string;
  seam: string;
  cursor: string;
  font: string;
}

export const FIGURE_PALETTE: Palette = {
  background: '#ffffff',
  fg: '#1d2330',
  muted: '#5b6570',
  grid: '#e3e6ec',
  a: '#1f6fd1',
  b: '#e0701b',
  diff: '#6b4fbb',
  marker: '#d0021b',
  seam: '#00897b',
  cursor: '#1d2330',
  font: '12px "DejaVu Sans", sans-serif',
};

/** Space around a figure's plot (the studio's lanes have none: their labels are beside them in the page). */
export interface Margins {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Runs `draw` with the origin at the plot's top left and everything outside the plot clipped. */
export function inPlot(ctx: DrawContext, x: number, y: number, width: number, height: number, draw: () => void): void {
  ctx.save();
  ctx.translate(x, y);
  ctx.beginPath();
  ctx.rect(0, 0, width, height);
  ctx.clip();
  draw();
  ctx.restore();
}

/** A marker's label in the top margin, on whichever side of its line (at x) has the room. */
export function markerLabel(ctx: DrawContext, x: number, plotLeft: number, plotWidth: number, text: string, color: string): void {
  ctx.fillStyle = color;
  ctx.textBaseline = 'top';
  const rightHalf = x > plotLeft + plotWidth / 2;
  ctx.textAlign = rightHalf ? 'right' : 'left';
  ctx.fillText(text, x + (rightHalf ? -5 : 5), 2);
}

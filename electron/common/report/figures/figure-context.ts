/**
 * The part of the Canvas 2D API the report figures draw with. A browser's CanvasRenderingContext2D
 * (report.html) and @napi-rs/canvas's context (the PNGs beside report.md) both satisfy it, so the page
 * and the PNGs are drawn by the same functions. Declared here because common sees no DOM types.
 */
export interface FigureContext {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textAlign: 'left' | 'right' | 'center' | 'start' | 'end';
  textBaseline: 'top' | 'middle' | 'bottom' | 'alphabetic' | 'hanging' | 'ideographic';
  save(): void;
  restore(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  fillText(text: string, x: number, y: number): void;
}

/** Figure size in CSS pixels. */
export interface FigureBox {
  width: number;
  height: number;
}

/** The figures' colours: fixed, so a PNG has the same bytes on every machine's theme. */
export const FIGURE_COLORS = {
  background: '#ffffff',
  fg: '#1d2330',
  grid: '#e3e6ec',
  a: '#1f6fd1',
  b: '#e0701b',
  diff: '#6b4fbb',
  marker: '#d0021b',
  tolerance: '#2e8540',
} as const;

export const FIGURE_FONT = '12px "DejaVu Sans", sans-serif';

/** A vertical line from y0 to y1 at x, snapped to the pixel grid so a 1 px line stays crisp. */
export function verticalLine(ctx: FigureContext, x: number, y0: number, y1: number): void {
  const px = Math.round(x) + 0.5;
  ctx.beginPath();
  ctx.moveTo(px, y0);
  ctx.lineTo(px, y1);
  ctx.stroke();
}

/**
 * The first-divergence marker: a 2 px line in the marker colour from just above the plot to its bottom,
 * labelled at the top, the label on whichever side of the line has the room.
 */
export function divergenceMarker(ctx: FigureContext, x: number, plot: { left: number; right: number; top: number; bottom: number }, width: number, label: string): void {
  ctx.strokeStyle = FIGURE_COLORS.marker;
  ctx.lineWidth = 2;
  verticalLine(ctx, x, plot.top - 4, plot.bottom);
  ctx.fillStyle = FIGURE_COLORS.marker;
  ctx.textBaseline = 'top';
  const rightHalf = x > plot.left + (width - plot.left - plot.right) / 2;
  ctx.textAlign = rightHalf ? 'right' : 'left';
  ctx.fillText(label, x + (rightHalf ? -5 : 5), 2);
}

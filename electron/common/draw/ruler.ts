import type { DrawContext } from './draw-context.js';
import type { TimeTick, TimeUnit } from './time-ticks.js';

const UNIT_TEXT: Record<TimeUnit, string> = { s: 's', ms: 'ms', samples: 'sample' };

/** The time ruler: a tick and its label per TimeTick, the unit at the right end. */
export function drawRuler(ctx: DrawContext, ticks: TimeTick[], unit: TimeUnit, width: number, height: number, fg: string, muted: string, font = '11px system-ui, sans-serif'): void {
  ctx.strokeStyle = muted;
  ctx.fillStyle = fg;
  ctx.lineWidth = 1;
  ctx.font = font;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.beginPath();
  ctx.moveTo(0, height - 0.5);
  ctx.lineTo(width, height - 0.5);
  for (const t of ticks) {
    const x = Math.round(t.x) + 0.5;
    ctx.moveTo(x, height - 7);
    ctx.lineTo(x, height);
  }
  ctx.stroke();
  for (const t of ticks) if (t.x + 4 < width - 50) ctx.fillText(t.label, t.x + 3, 2);
  ctx.fillStyle = muted;
  ctx.textAlign = 'right';
  ctx.fillText(UNIT_TEXT[unit], width - 2, 2);
}

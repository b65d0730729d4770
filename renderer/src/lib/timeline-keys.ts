/** What a key on the focused timeline does: zoom by a factor, scroll by a fraction of the view, go to an end, or fit. */
export interface TimelineKeyAction {
  zoom?: number;
  scroll?: number;
  to?: 'start' | 'end';
  fit?: boolean;
}

/**
 * The timeline's own keys (listed in the ? sheet with the other widget keys): + / = zoom in ×2, − zoom
 * out, ← → scroll a tenth of the view (with Ctrl/⌘ a whole view), Home / End go to the ends, 0 fits.
 */
export function timelineKeyAction(key: string, mod: boolean): TimelineKeyAction | undefined {
  switch (key) {
    case '+':
    case '=':
      return { zoom: 2 };
    case '-':
    case '_':
      return { zoom: 0.5 };
    case 'ArrowLeft':
      return { scroll: mod ? -1 : -0.1 };
    case 'ArrowRight':
      return { scroll: mod ? 1 : 0.1 };
    case 'Home':
      return { to: 'start' };
    case 'End':
      return { to: 'end' };
    case '0':
      return { fit: true };
    default:
      return undefined;
  }
}

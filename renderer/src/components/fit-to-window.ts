import { useLayoutEffect, type RefObject } from 'react';

/** The least height the lanes keep when they scroll inside themselves (the ruler and the A/B lane, about). */
const MIN_PX = 100;

/**
 * While `enabled`, caps the element's height so that, with the results pane scrolled to the top, everything
 * from the element down to the details' tab list (transport included) stays inside the pane; the element
 * then scrolls inside itself (spectrograms, or a 16-codebook codes lane, make the lanes taller than a short window holds).
 */
export function useFitToWindow(ref: RefObject<HTMLElement | null>, enabled: boolean): void {
  useLayoutEffect(() => {
    const el = ref.current;
    const results = document.getElementById('results');
    if (!el || !results) return;
    if (!enabled) {
      el.style.maxHeight = '';
      return;
    }
    const fit = () => {
      const tabs = results.querySelector('[role="tablist"][aria-label="Details"]');
      const pane = results.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const top = box.top - pane.top + results.scrollTop;
      // What follows the element up to the tab list's bottom does not depend on the element's own height.
      const after = tabs ? tabs.getBoundingClientRect().bottom - box.bottom : 0;
      const px = `${Math.max(MIN_PX, Math.floor(results.clientHeight - top - after - 4))}px`;
      if (el.style.maxHeight !== px) el.style.maxHeight = px;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(results);
    // What follows the element changes too (a transport once audio comes, a notice): the pane's content is watched.
    for (const child of Array.from(results.children)) observer.observe(child);
    window.addEventListener('resize', fit);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', fit);
      el.style.maxHeight = '';
    };
  }, [ref, enabled]);
}

import { useEffect, useState, type RefObject } from 'react';

/** The element's content width in CSS px, followed as the window resizes. */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback = 900): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setWidth(Math.max(320, Math.floor(el.clientWidth)));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

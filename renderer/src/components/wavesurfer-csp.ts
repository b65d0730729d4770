import type WaveSurfer from 'wavesurfer.js';

/**
 * wavesurfer.js puts its layout CSS in a <style> inside its shadow root; our CSP (style-src 'self')
 * blocks inline <style>. The same text as a constructed stylesheet is allowed, so adopt it.
 */
export function adoptWavesurferStyles(ws: WaveSurfer): void {
  const root = ws.getWrapper().getRootNode();
  if (!(root instanceof ShadowRoot)) return;
  const style = root.querySelector('style');
  if (!style?.textContent) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(style.textContent);
  root.adoptedStyleSheets = [sheet];
}

/** A thin vertical line at `fraction` of the track, placed inside wavesurfer's scrolled wrapper so it follows zoom and scroll. */
export function addMarker(ws: WaveSurfer, fraction: number, color: string, label: string): HTMLElement {
  const el = document.createElement('div');
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', label);
  el.title = label;
  Object.assign(el.style, {
    position: 'absolute',
    top: '0',
    bottom: '0',
    left: `${fraction * 100}%`,
    width: '2px',
    background: color,
    zIndex: '4',
    pointerEvents: 'none',
  });
  ws.getWrapper().appendChild(el);
  return el;
}

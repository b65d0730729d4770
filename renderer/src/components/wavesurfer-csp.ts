import WaveSurfer, { type WaveSurferOptions } from 'wavesurfer.js';

/**
 * wavesurfer.js writes its layout CSS as a <style> into its shadow root with innerHTML; our CSP
 * (style-src 'self') blocks that element and logs a violation for each instance. During creation,
 * the shadow root it attaches gets an innerHTML setter that takes the <style> text out and adopts it
 * as a constructed stylesheet (allowed by CSP); the rest of the markup has no inline styles.
 */
export function createWaveSurfer(options: WaveSurferOptions): WaveSurfer {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attach.call(this, init);
    const inner = Object.getOwnPropertyDescriptor(ShadowRoot.prototype, 'innerHTML')!;
    Object.defineProperty(root, 'innerHTML', {
      configurable: true,
      get: () => inner.get!.call(root) as string,
      set: (html: string) => {
        const css: string[] = [];
        const rest = html.replace(/<style[^>]*>([\s\S]*?)<\/style>/gi, (_m, text: string) => (css.push(text), ''));
        inner.set!.call(root, rest);
        if (css.length === 0) return;
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css.join('\n'));
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
      },
    });
    return root;
  };
  try {
    return WaveSurfer.create(options);
  } finally {
    Element.prototype.attachShadow = attach;
  }
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

type RendererInternals = {
  canvasWrapper?: HTMLElement;
  renderProgress?: (progress: number, playing: boolean) => void;
  getPixelRatio?: () => number;
  renderWaveform?: (data: unknown, options: unknown, ctx: CanvasRenderingContext2D) => void;
  renderSingleCanvas?: (...args: unknown[]) => void;
};

/**
 * wavesurfer draws every waveform canvas twice: once, then a clone tinted as the "played" part. We
 * show the position with the cursor only (progress is transparent), so the clone is pure cost: a
 * drawImage and a second canvas to raster per chunk, about a third of a zoom step's time in the
 * benchmark. This draws the canvas once, with wavesurfer's own drawing routine, and stops the
 * progress display from clipping the played part away (7.x internals; if they are missing,
 * wavesurfer's methods are kept).
 */
export function drawWithoutProgressClone(ws: WaveSurfer): void {
  const r = ws.getRenderer() as unknown as RendererInternals;
  if (typeof r.getPixelRatio !== 'function' || typeof r.renderWaveform !== 'function' || typeof r.renderSingleCanvas !== 'function') return;
  if (typeof r.renderProgress !== 'function' || !(r.canvasWrapper instanceof HTMLElement)) return;
  const renderProgress = r.renderProgress.bind(r);
  const wrapper = r.canvasWrapper;
  r.renderProgress = (progress, playing) => {
    renderProgress(progress, playing);
    wrapper.style.clipPath = '';
  };
  const getPixelRatio = r.getPixelRatio.bind(r);
  const renderWaveform = r.renderWaveform.bind(r);
  r.renderSingleCanvas = (data: unknown, options: unknown, width: unknown, height: unknown, offset: unknown, container: unknown) => {
    const ratio = getPixelRatio();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round((width as number) * ratio);
    canvas.height = Math.round((height as number) * ratio);
    canvas.style.width = `${width as number}px`;
    canvas.style.height = `${height as number}px`;
    canvas.style.left = `${Math.round(offset as number)}px`;
    (container as HTMLElement).appendChild(canvas);
    renderWaveform(data, options, canvas.getContext('2d')!);
  };
}

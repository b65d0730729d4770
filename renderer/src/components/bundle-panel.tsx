import { bundleSelectors } from '../store/bundle/bundle-slice.js';
import { useStudio } from './store-context.js';

export function BundlePanel() {
  const bundle = useStudio(bundleSelectors.bundle);
  const error = useStudio(bundleSelectors.error);
  if (error) return <p role="alert" className="error">Model bundle: {error}</p>;
  if (!bundle) return <p className="muted">Loading the model bundle…</p>;
  return (
    <section aria-label="Model bundle" className="bundle">
      <strong data-testid="bundle-name">{bundle.name}</strong>
      {bundle.demo && <span className="tag" title="Untrained weights built from a fixed seed: a pitched, vowel-like sound, not a voice">demo</span>}
      <span>{bundle.sampleRate} Hz</span>
      <span>{bundle.frameRate} frames/s</span>
      <span>{bundle.codebooks} codebooks × {bundle.codebookSize}</span>
      {bundle.maxFrames !== undefined && <span>max {bundle.maxFrames} frames</span>}
      <span>EP: {bundle.executionProviders.join(', ')}</span>
    </section>
  );
}

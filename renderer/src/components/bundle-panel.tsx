import { bundleLabel } from '../lib/bundle-label.js';
import { tokenizerLabel } from '../lib/text-limit.js';
import { bundleSelectors } from '../store/bundle/bundle-slice.js';
import { useStudio } from './store-context.js';

export function BundlePanel() {
  const bundle = useStudio(bundleSelectors.bundle);
  const error = useStudio(bundleSelectors.error);
  // The error itself is the notice (with what to do); the header only says the state, on one line.
  if (error) {
    return (
      <p className="bundle bundle-state error" title={error} data-testid="bundle-error">
        Model bundle not opened (the notice says why)
      </p>
    );
  }
  if (!bundle) return <p className="bundle bundle-state muted">Loading the model bundle…</p>;
  const label = bundleLabel(bundle);
  const tokenizer = bundle.tokenizer && tokenizerLabel(bundle.tokenizer);
  return (
    <section aria-label="Model bundle" className="bundle" title={`${bundle.name}: ${bundle.sampleRate} Hz, ${bundle.frameRate} frames/s, ${bundle.codebooks} codebooks × ${bundle.codebookSize}${bundle.maxFrames !== undefined ? `, max ${bundle.maxFrames} frames` : ''}`}>
      <strong data-testid="bundle-name">{label.name}</strong>
      {label.tag && (
        <span className="tag" title="Untrained weights built from a fixed seed: a pitched, vowel-like sound, not a voice">
          {label.tag}
        </span>
      )}
      <span>{bundle.sampleRate} Hz</span>
      <span className="wide-only">{bundle.frameRate} frames/s</span>
      <span>
        {bundle.codebooks} codebooks × {bundle.codebookSize}
      </span>
      {tokenizer && (
        <span title={tokenizer.title} data-testid="bundle-tokenizer">
          {tokenizer.text}
        </span>
      )}
      {bundle.maxFrames !== undefined && <span className="wide-only">max {bundle.maxFrames} frames</span>}
      <span>EP: {bundle.executionProviders.join(', ')}</span>
    </section>
  );
}

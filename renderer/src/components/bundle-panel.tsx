import { bundleLabel } from '../lib/bundle-label.js';
import { shownSource } from '../lib/shown-source.js';
import { tokenizerLabel } from '../lib/text-limit.js';
import { bundleSelectors } from '../store/bundle/bundle-selectors.js';
import { useStudio } from './store-context.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';

/**
 * The header's line on what is shown: the model bundle (what the studio synthesizes with), or, while imported
 * traces or WAVs are on screen, what they are (engine, codebooks, rates), the bundle then named only.
 */
export function BundlePanel() {
  const bundle = useStudio(bundleSelectors.bundle);
  const error = useStudio(bundleSelectors.error);
  const report = useStudio(comparisonSelectors.report);
  const shown = shownSource(report);
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
  if (shown) {
    return (
      <section aria-label="What is shown" className="bundle" data-testid="shown-source" title={[shown.name, ...shown.facts].join(' · ')}>
        <strong data-testid="shown-name">{shown.name}</strong>
        {shown.facts.map((f, i) => (
          <span key={i} className={i === 0 ? 'shown-engine' : shown.wideOnly?.includes(f) ? 'wide-only' : undefined} title={f}>
            {f}
          </span>
        ))}
        <span className="muted wide-only" title={`Synthesize A/B uses the model bundle ${bundle.name}: ${bundle.sampleRate} Hz, ${bundle.codebooks} codebooks × ${bundle.codebookSize}`}>
          (synthesis: <span data-testid="bundle-name">{label.name}</span>)
        </span>
      </section>
    );
  }
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

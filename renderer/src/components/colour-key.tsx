import { sidesSelectors } from '../store/comparison/sides-selectors.js';
import { useStudio } from './store-context.js';

/** The lanes' colour key, as report.html has it: A blue, B orange, A − B purple, each with what it is. */
export function ColourKey() {
  const names = useStudio(sidesSelectors.names);
  return (
    <p className="colour-key small-text" data-testid="colour-key" aria-label="Colour key">
      <span className="key-a">
        <span className="swatch" aria-hidden="true" />A{names ? `: ${names.a}` : ''}
      </span>
      <span className="key-b">
        <span className="swatch" aria-hidden="true" />B{names ? `: ${names.b}` : ''}
      </span>
      <span className="key-d">
        <span className="swatch" aria-hidden="true" />A − B, |Δ|
      </span>
      <span className="key-marker">
        <span className="swatch" aria-hidden="true" />over tolerance, first divergence
      </span>
    </p>
  );
}

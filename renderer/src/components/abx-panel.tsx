import { levelGivesAway, pGuessText } from '../lib/abx-stats.js';
import { fmt } from '../lib/format.js';
import { abxSelectors } from '../store/abx/abx-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/** Blind test: X is A or B (drawn from a crypto seed); the listener says which; score and p(guessing). */
export function AbxPanel() {
  const store = useStoreApi();
  const active = useStudio(abxSelectors.active);
  const trials = useStudio(abxSelectors.trials);
  const correct = useStudio(abxSelectors.correct);
  const p = useStudio(abxSelectors.pText);
  const saved = useStudio(abxSelectors.saved);
  const previous = useStudio(abxSelectors.savedSession);
  const take = useStudio(playbackSelectors.activeTake);
  const historyId = useStudio(comparisonSelectors.historyId);
  const deltaLU = useStudio(comparisonSelectors.deltaLU);
  const match = useStudio(playbackSelectors.matchLoudness);
  const s = () => store.getState();
  const listen = (t: 'A' | 'B' | 'X') => {
    s().selectTake(t);
    if (!s().playing) void s().togglePlay();
  };
  return (
    <div className="abx">
      {previous && (
        <p className="muted" data-testid="abx-saved-session">
          Saved blind test: {previous.correct} of {previous.trials.length} correct, p(guessing) {pGuessText(previous.correct, previous.trials.length)}
        </p>
      )}
      <p className="abx-about" data-testid="abx-about">
        Can you hear a difference? Each trial plays X, which is A or B drawn at random; listen to A, B and X as often as you like, then
        say which one X is. p(guessing) is the chance of scoring at least as well by pure guessing: near 1 means no audible difference
        shown; under 0.05 (e.g. 5 of 5, or 12 of 16) means you can tell them apart.
      </p>
      {levelGivesAway(deltaLU, match) && (
        <p role="alert" className="fault-warning" data-testid="abx-level-warning">
          <strong>
            B is {fmt(Math.abs(deltaLU), 2, ' LU')} {deltaLU < 0 ? 'quieter' : 'louder'} than A: the level alone gives X away.
          </strong>{' '}
          <button type="button" className="small" onClick={() => s().toggleMatchLoudness()}>
            Match loudness
          </button>{' '}
          plays B at A’s loudness, so the test asks about the content.
        </p>
      )}
      {!active ? (
        <button type="button" onClick={() => s().startAbx()} disabled={!historyId}>
          Start ABX blind test
        </button>
      ) : (
        <>
          <div className="abx-listen" role="group" aria-label="Listen">
            {(['A', 'B', 'X'] as const).map((t) => (
              <button key={t} type="button" className={`take ${take === t ? 'on' : ''}`} aria-pressed={take === t} onClick={() => listen(t)}>
                Listen {t}
              </button>
            ))}
          </div>
          <div className="abx-answer" role="group" aria-label={`Trial ${trials + 1}: which is X?`}>
            <span>Trial {trials + 1}: X is…</span>
            <button type="button" onClick={() => s().answerAbx('A')}>
              X is A
            </button>
            <button type="button" onClick={() => s().answerAbx('B')}>
              X is B
            </button>
          </div>
          <p data-testid="abx-score" aria-live="polite">
            {correct} of {trials} correct · p(guessing) {p}
            <span className="muted"> (one-sided binomial: chance of scoring at least this well by guessing)</span>
          </p>
          <button type="button" onClick={() => void s().saveAbx()} disabled={trials === 0}>
            {saved ? 'Saved with the comparison' : 'Save result with the comparison'}
          </button>
        </>
      )}
    </div>
  );
}

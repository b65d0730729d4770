import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { fmt, fmtTime } from '../lib/format.js';
import { radioAfterKey, radioTabStop } from '../lib/roving-keys.js';
import { audioSelectors } from '../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import type { ActiveTake } from '../store/playback/playback-slice.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { shortcutLabel } from '../lib/shortcut-keys.js';
import type { StudioState } from '../store/studio-store.js';
import { useStoreApi, useStudio } from './store-context.js';

const TAKES: { take: ActiveTake; name: string; key: string }[] = [
  { take: 'A', name: 'A', key: 'a' },
  { take: 'B', name: 'B', key: 'b' },
  { take: 'D', name: 'Difference', key: 'd' },
];

/** Play/pause, the take switch (same position, 5 ms crossfade), loudness match and loop. */
export function TransportBar() {
  const store = useStoreApi();
  const hasAudio = useStudio(audioSelectors.hasAudio);
  const playing = useStudio(playbackSelectors.playing);
  const take = useStudio(playbackSelectors.activeTake);
  const loopOn = useStudio(playbackSelectors.loopOn);
  const loop = useStudio(playbackSelectors.loop);
  const match = useStudio(playbackSelectors.matchLoudness);
  const deltaLU = useStudio(comparisonSelectors.deltaLU);
  const bar = useRef<HTMLDivElement>(null);
  const time = useRef<HTMLSpanElement>(null);
  usePositionReadout(store, bar, time);
  if (!hasAudio) return null;
  const position = playbackSelectors.position(store.getState()); // drawn now; every later frame by the readout
  const s = () => store.getState();
  // One tab stop for the three takes: the checked one (the first while ABX plays X); arrows check and focus the next (roving tabindex).
  const takes = TAKES.map((t) => t.take);
  const stop = radioTabStop(takes, take);
  const onTakeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = radioAfterKey(takes, take, e.key);
    if (next === undefined) return;
    e.preventDefault();
    s().selectTake(next);
    e.currentTarget.querySelector<HTMLButtonElement>(`.take-${next}`)?.focus();
  };
  return (
    <div ref={bar} className="transport" role="toolbar" aria-label="Transport" data-testid="transport" data-active-take={take} data-playing={playing} data-position={position.toFixed(4)}>
      <button type="button" className="play" onClick={() => void s().togglePlay()} title={`Play / pause (${shortcutLabel(' ')})`} aria-keyshortcuts="Space">
        {playing ? 'Pause' : 'Play'}
      </button>
      <div className="segmented" role="radiogroup" aria-label="Take" onKeyDown={onTakeKey}>
        {TAKES.map((t) => (
          <button
            key={t.take}
            type="button"
            role="radio"
            aria-checked={take === t.take}
            tabIndex={stop === t.take ? 0 : -1}
            className={`take take-${t.take}`}
            onClick={() => s().selectTake(t.take)}
            title={`Listen to ${t.name} at the same position (${shortcutLabel(t.key)})`}
            aria-keyshortcuts={shortcutLabel(t.key)}
          >
            {t.name}
          </button>
        ))}
      </div>
      <label className="inline" title={`Play B at A's loudness: B gain ${fmt(-deltaLU, 2, ' dB')} (ΔLU = ${fmt(deltaLU, 2)})`}>
        <input type="checkbox" checked={match} onChange={() => s().toggleMatchLoudness()} /> Match loudness
      </label>
      <button type="button" className="small" aria-pressed={loopOn} onClick={() => s().toggleLoop()} title={`Loop the selected region, or what is in view (${shortcutLabel('l')})`} aria-keyshortcuts="L">
        Loop{loopOn && loop ? ` ${fmtTime(loop.start)}–${fmtTime(loop.end)}` : ''}
      </button>
      <span ref={time} className="muted time">
        {fmtTime(position)}
      </span>
      <button type="button" className="small ghost" onClick={() => s().setShortcutsOpen(true)} title="Keyboard shortcuts (?)" aria-keyshortcuts="?">
        Keys ?
      </button>
    </div>
  );
}

/**
 * The play position changes every animation frame while playing: it is written into the bar's DOM here, so
 * the bar itself re-renders only when what it shows otherwise changes.
 */
function usePositionReadout(store: StoreApi<StudioState>, bar: RefObject<HTMLDivElement | null>, time: RefObject<HTMLSpanElement | null>) {
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const position = playbackSelectors.position(state);
        if (position === playbackSelectors.position(previous)) return;
        bar.current?.setAttribute('data-position', position.toFixed(4));
        if (time.current) time.current.textContent = fmtTime(position);
      }),
    [store, bar, time],
  );
}

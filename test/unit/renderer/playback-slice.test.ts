import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { LoopRegion, PlayerLike, PlayerTracks, TakeGains } from '../../../renderer/src/audio/player.js';
import { matchGain, playbackSelectors } from '../../../renderer/src/store/playback/playback-selectors.js';
import { abxSelectors } from '../../../renderer/src/store/abx/abx-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

/** A player double that records what the slice asked of it. */
function fakePlayer() {
  const log: string[] = [];
  let gains: TakeGains = { A: 1, B: 0, D: 0 };
  let loop: LoopRegion | null = null;
  let pos = 0;
  let duration = 0;
  const player: PlayerLike = {
    load: (t: PlayerTracks) => {
      duration = (t.a?.length ?? 0) / t.sampleRate;
      log.push('load');
    },
    unload: () => {
      duration = 0;
      log.push('unload');
    },
    duration: () => duration,
    play: async (from) => {
      pos = from;
      log.push(`play ${from}`);
    },
    pause: () => (log.push('pause'), pos),
    position: () => pos,
    setGains: (g) => (gains = g),
    setLoop: (l) => (loop = l),
    onFrame: () => () => undefined,
  };
  return { player, log, gains: () => gains, loop: () => loop, setPos: (p: number) => (pos = p) };
}

const comparison = (deltaLU: number | string) => ({
  historyId: '20250101-000000-abcdef',
  report: { metrics: { loudnessDeltaLU: deltaLU } },
  a: { sampleRate: 10, samples: new Float32Array(100) },
  b: { sampleRate: 10, samples: new Float32Array(100) },
});

function setup(deltaLU: number | string = 2) {
  const f = fakePlayer();
  const saved: unknown[] = [];
  const studio = { saveAbx: async (r: unknown) => (saved.push(r), { saved: true }) } as unknown as StudioApi;
  const store = createStudioStore(studio, f.player);
  store.getState().showComparison(comparison(deltaLU) as never);
  return { store, f, saved };
}

describe('playback slice and selectors (no React, player double)', () => {
  it('loudness match gain is 10^(−ΔLU/20) on B; 1 when ΔLU is not finite', () => {
    expect(matchGain(6)).toBeCloseTo(0.501187, 6); // −6 dB
    expect(matchGain(-1)).toBeCloseTo(1.122018, 6); // +1 dB
    expect(matchGain('NaN')).toBe(1);
    expect(matchGain(undefined)).toBe(1);
  });

  it('a comparison without audio (traces only) lets the previous takes go: Space then plays nothing', async () => {
    const { store, f } = setup();
    expect(f.log).toEqual(['load']);
    store.getState().showComparison({ historyId: '20250101-000000-fedcba', report: { kind: 'traces' } } as never);
    expect(f.log.at(-1)).toBe('unload');
    await store.getState().togglePlay();
    expect(f.log.some((l) => l.startsWith('play'))).toBe(false);
    expect(store.getState().playing).toBe(false);
  });

  it('switching take while playing only moves gains: no restart, same position', async () => {
    const { store, f } = setup(2);
    await store.getState().togglePlay();
    expect(f.log).toEqual(['load', 'play 0']);
    f.setPos(3.2);
    store.getState().selectTake('B');
    expect(f.log).toEqual(['load', 'play 0']); // nothing restarted
    expect(f.gains()).toEqual({ A: 0, B: 1, D: 0 });
    store.getState().toggleMatchLoudness();
    expect(f.gains().B).toBeCloseTo(10 ** (-2 / 20), 9);
    store.getState().selectTake('D');
    expect(f.gains()).toEqual({ A: 0, B: 0, D: 1 });
    await store.getState().togglePlay();
    expect(store.getState().position).toBe(3.2);
    expect(playbackSelectors.playing(store.getState())).toBe(false);
  });

  it('seek while playing restarts all takes from the new position; loop goes to the player', async () => {
    const { store, f } = setup();
    await store.getState().togglePlay();
    store.getState().seek(4.5);
    expect(f.log.at(-1)).toBe('play 4.5');
    store.getState().seek(99);
    expect(store.getState().position).toBe(10); // clamped to the 10 s take
    store.getState().setLoopRegion({ start: 1, end: 2 });
    expect(f.loop()).toEqual({ start: 1, end: 2 });
    store.getState().toggleLoop();
    expect(f.loop()).toBeNull();
  });

  it('X plays the hidden take of the current ABX trial; answers advance and are scored and saved', async () => {
    const { store, f, saved } = setup();
    store.getState().startAbx(12345);
    store.getState().selectTake('X');
    const x0 = store.getState().abx!.currentX;
    expect(f.gains()[x0]).toBe(1);
    store.getState().answerAbx(x0);
    const x1 = store.getState().abx!.currentX;
    store.getState().answerAbx(x1 === 'A' ? 'B' : 'A');
    expect(abxSelectors.trials(store.getState())).toBe(2);
    expect(abxSelectors.correct(store.getState())).toBe(1);
    // P(X ≥ 1 | n = 2) = (C(2,1) + C(2,2)) / 2^2 = 3/4 = 0.75 exactly.
    expect(abxSelectors.pText(store.getState())).toBe('= 3/4 = 0.75');
    // After an answer the gains follow the next trial's X.
    expect(f.gains()[store.getState().abx!.currentX]).toBe(1);
    await store.getState().saveAbx();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ id: '20250101-000000-abcdef', session: { seed: 12345, correct: 1, pGuess: 0.75 } });
    expect(abxSelectors.saved(store.getState())).toBe(true);
  });
});

describe('the playback slice and the player clock', () => {
  it('keeps its one subscription to the clock and gives it back on detachPlayer', () => {
    const listeners = new Set<(position: number, playing: boolean) => void>();
    const player: PlayerLike = { ...fakePlayer().player, onFrame: (listener) => (listeners.add(listener), () => listeners.delete(listener)) };
    const store = createStudioStore({} as StudioApi, player);
    expect(listeners.size).toBe(1);
    for (const tick of listeners) tick(1.25, true);
    expect(store.getState()).toMatchObject({ position: 1.25, playing: true });
    store.getState().detachPlayer();
    expect(listeners.size).toBe(0);
  });
});

import type { StateCreator } from 'zustand/vanilla';
import type { LoopRegion, PlayerLike } from '../../audio/player.js';
import type { StudioState } from '../studio-store.js';
import { audioSelectors } from '../comparison/audio-selectors.js';
import { playbackSelectors } from './playback-selectors.js';

/** A, B, the difference D, or X (the hidden take of the current ABX trial). */
export type ActiveTake = 'A' | 'B' | 'D' | 'X';

export interface PlaybackSlice {
  activeTake: ActiveTake;
  playing: boolean;
  /** Seconds on the shared timeline. */
  position: number;
  loop?: LoopRegion;
  loopOn: boolean;
  /** Play B scaled by −ΔLU so a switch compares content, not level. */
  matchLoudness: boolean;
  togglePlay(): Promise<void>;
  selectTake(take: ActiveTake): void;
  seek(sec: number): void;
  setLoopRegion(region: LoopRegion | undefined): void;
  toggleLoop(): void;
  toggleMatchLoudness(): void;
  /** Stops following the player's clock (the page is going away); the slice's one subscription. */
  detachPlayer(): void;
}

export const createPlaybackSlice =
  (player: PlayerLike): StateCreator<StudioState, [], [], PlaybackSlice> =>
  (set, get) => {
    const stopFollowing = player.onFrame((position, playing) => set({ position, playing }));
    const applyGains = () => player.setGains(playbackSelectors.gains(get()));
    const applyLoop = () => {
      const { loop, loopOn } = get();
      player.setLoop(loopOn && loop ? loop : null);
    };
    return {
      activeTake: 'A',
      playing: false,
      position: 0,
      loop: undefined,
      loopOn: false,
      matchLoudness: false,
      async togglePlay() {
        if (get().playing) {
          set({ playing: false, position: player.pause() });
          return;
        }
        // The player keeps the last buffers it loaded: with no audio on screen there is nothing to play.
        if (player.duration() === 0 || !audioSelectors.hasAudio(get())) return;
        applyGains();
        const from = get().position >= player.duration() ? 0 : get().position;
        set({ playing: true });
        await player.play(from);
      },
      selectTake(take) {
        set({ activeTake: take });
        applyGains();
      },
      seek(sec) {
        const position = Math.max(0, Math.min(sec, player.duration()));
        set({ position });
        if (get().playing) void player.play(position);
      },
      setLoopRegion(region) {
        set({ loop: region && region.end > region.start ? region : undefined, loopOn: Boolean(region) });
        applyLoop();
      },
      toggleLoop() {
        const { loop, loopOn, viewport } = get();
        // With no region yet, loop what is in view.
        if (!loop) set({ loop: { start: viewport.start, end: viewport.end > viewport.start ? viewport.end : player.duration() } });
        set({ loopOn: !loopOn });
        applyLoop();
      },
      toggleMatchLoudness() {
        set((s) => ({ matchLoudness: !s.matchLoudness }));
        applyGains();
      },
      detachPlayer: stopFollowing,
    };
  };

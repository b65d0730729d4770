/** The three takes the transport can play: A, B, and the difference A − B. */
export type Take = 'A' | 'B' | 'D';
export type TakeGains = Record<Take, number>;

export interface LoopRegion {
  start: number;
  end: number;
}

export interface PlayerTracks {
  sampleRate: number;
  a?: Float32Array;
  b?: Float32Array;
  d?: Float32Array;
}

/**
 * What the playback slice drives. All takes run at once, in sync, from one start time; switching
 * take only moves gains (a short crossfade), so the position never jumps and nothing is restarted.
 */
export interface PlayerLike {
  load(tracks: PlayerTracks): void;
  /** Stops and lets the loaded takes go (a comparison with no audio, or none, is on screen). */
  unload(): void;
  duration(): number;
  play(from: number): Promise<void>;
  /** Stops and returns the position reached, seconds. */
  pause(): number;
  position(): number;
  setGains(gains: TakeGains): void;
  setLoop(loop: LoopRegion | null): void;
  /** Called every animation frame while playing (and once on stop) with the position. */
  onFrame(listener: (position: number, playing: boolean) => void): () => void;
}

/** Crossfade on take switch: long enough to avoid a click, short enough to feel instant. */
export const CROSSFADE_SEC = 0.005;

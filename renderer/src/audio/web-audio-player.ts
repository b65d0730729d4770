import { CROSSFADE_SEC, type LoopRegion, type PlayerLike, type PlayerTracks, type Take, type TakeGains } from './player.js';

const TAKES: Take[] = ['A', 'B', 'D'];

/**
 * Web Audio player: one AudioBufferSourceNode per take, all started at the same context time with the
 * same offset, each through its own GainNode. The active take has gain 1 (B times the loudness-match
 * gain), the others 0; a switch ramps the gains over CROSSFADE_SEC.
 */
export class WebAudioPlayer implements PlayerLike {
  private ctx?: AudioContext;
  private buffers: Partial<Record<Take, AudioBuffer>> = {};
  private sources: AudioBufferSourceNode[] = [];
  private gains = new Map<Take, GainNode>();
  private target: TakeGains = { A: 1, B: 0, D: 0 };
  private loop: LoopRegion | null = null;
  private startedAt = 0;
  private offset = 0;
  private playing = false;
  private length = 0;
  private listeners = new Set<(position: number, playing: boolean) => void>();
  private raf = 0;

  unload(): void {
    this.stopSources();
    this.playing = false;
    this.offset = 0;
    this.buffers = {};
    this.length = 0;
  }

  load(tracks: PlayerTracks): void {
    this.stopSources();
    this.playing = false;
    if (!this.ctx || this.ctx.sampleRate !== tracks.sampleRate) {
      void this.ctx?.close();
      this.ctx = new AudioContext({ sampleRate: tracks.sampleRate });
      this.gains.clear();
      for (const take of TAKES) {
        const g = this.ctx.createGain();
        g.gain.value = this.target[take];
        g.connect(this.ctx.destination);
        this.gains.set(take, g);
      }
    }
    this.buffers = {};
    this.length = 0;
    const data: Record<Take, Float32Array | undefined> = { A: tracks.a, B: tracks.b, D: tracks.d };
    for (const take of TAKES) {
      const samples = data[take];
      if (!samples || samples.length === 0) continue;
      const buffer = this.ctx.createBuffer(1, samples.length, tracks.sampleRate);
      // A NaN reaching the output would silence the whole graph: play it as silence.
      buffer.copyToChannel(sanitize(samples), 0);
      this.buffers[take] = buffer;
      this.length = Math.max(this.length, buffer.duration);
    }
    this.offset = 0;
  }

  duration(): number {
    return this.length;
  }

  async play(from: number): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) return;
    if (ctx.state === 'suspended') await ctx.resume();
    this.stopSources();
    const loop = this.loop;
    let start = Math.max(0, Math.min(from, this.length));
    if (loop && (start < loop.start || start >= loop.end)) start = loop.start;
    // A few ms ahead so every source starts on the same sample.
    const when = ctx.currentTime + 0.02;
    for (const take of TAKES) {
      const buffer = this.buffers[take];
      if (!buffer) continue;
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      if (loop) {
        src.loop = true;
        src.loopStart = loop.start;
        src.loopEnd = Math.min(loop.end, buffer.duration);
      }
      src.connect(this.gains.get(take)!);
      if (start < buffer.duration) src.start(when, start);
      this.sources.push(src);
    }
    for (const take of TAKES) this.gains.get(take)!.gain.setValueAtTime(this.target[take], when);
    this.startedAt = when;
    this.offset = start;
    this.playing = true;
    this.tick();
  }

  pause(): number {
    const pos = this.position();
    this.stopSources();
    this.playing = false;
    this.offset = pos;
    this.emit(pos);
    return pos;
  }

  position(): number {
    if (!this.playing || !this.ctx) return this.offset;
    let pos = this.offset + Math.max(0, this.ctx.currentTime - this.startedAt);
    const loop = this.loop;
    if (loop && pos >= loop.end && loop.end > loop.start) pos = loop.start + ((pos - loop.start) % (loop.end - loop.start));
    return Math.min(pos, this.length);
  }

  setGains(gains: TakeGains): void {
    this.target = { ...gains };
    const ctx = this.ctx;
    if (!ctx) return;
    const now = ctx.currentTime;
    for (const take of TAKES) {
      const param = this.gains.get(take)!.gain;
      param.cancelScheduledValues(now);
      param.setValueAtTime(param.value, now);
      param.linearRampToValueAtTime(gains[take], now + CROSSFADE_SEC);
    }
  }

  setLoop(loop: LoopRegion | null): void {
    const pos = this.position();
    this.loop = loop && loop.end > loop.start ? loop : null;
    if (this.playing) void this.play(pos);
  }

  onFrame(listener: (position: number, playing: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tick = (): void => {
    cancelAnimationFrame(this.raf);
    if (!this.playing) return;
    const pos = this.position();
    if (!this.loop && pos >= this.length) {
      this.pause();
      this.offset = 0;
      this.emit(0);
      return;
    }
    this.emit(pos);
    this.raf = requestAnimationFrame(this.tick);
  };

  private emit(pos: number): void {
    for (const l of this.listeners) l(pos, this.playing);
  }

  private stopSources(): void {
    for (const src of this.sources) {
      try {
        src.stop();
      } catch {
        // never started (offset past its end)
      }
      src.disconnect();
    }
    this.sources = [];
  }
}

function sanitize(x: Float32Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Number.isFinite(x[i]) ? x[i] : 0;
  return out;
}

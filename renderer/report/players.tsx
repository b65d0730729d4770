import { useEffect, useRef, useState } from 'react';
import type { PageAudio } from '../../electron/common/report/html/report-page-data.js';
import { fmt, fmtTime } from '../src/lib/format.js';
import type { PageTracks } from './page-tracks.js';

type Take = 'a' | 'b' | 'diff';
const LABEL: Record<Take, string> = { a: 'A', b: 'B', diff: 'A − B (difference)' };

/** Volumes that play A and B at the same integrated loudness: the louder one is turned down by |ΔLU|. */
export function matchedVolumes(deltaLU: number | null): { a: number; b: number } {
  if (deltaLU === null) return { a: 1, b: 1 };
  const down = 10 ** (-Math.abs(deltaLU) / 20);
  return deltaLU > 0 ? { a: 1, b: down } : { a: down, b: 1 };
}

/**
 * Native players for A, B and the difference; one plays at a time. "Switch A↔B" moves to the other take at
 * the same position (playing on if it was playing); loudness matching and the difference's level are volumes.
 */
export function Players({ audio, tracks, onTime, seek }: { audio: PageAudio; tracks: PageTracks; onTime: (sec: number) => void; seek?: { sec: number } }) {
  const refs = { a: useRef<HTMLAudioElement>(null), b: useRef<HTMLAudioElement>(null), diff: useRef<HTMLAudioElement>(null) };
  const [active, setActive] = useState<Take>('a');
  const [matched, setMatched] = useState(false);
  const [amplified, setAmplified] = useState(false);
  const [position, setPosition] = useState(0);
  const volumes = matched ? matchedVolumes(audio.loudnessDeltaLU) : { a: 1, b: 1 };
  // The difference is embedded at full scale; its real level is 1/gain (the page's own WAVs beside it are at their real level).
  const diffVolume = !audio.embedded || amplified ? 1 : Math.min(1, 1 / tracks.diffGain);
  useEffect(() => {
    if (refs.a.current) refs.a.current.volume = volumes.a;
    if (refs.b.current) refs.b.current.volume = volumes.b;
    if (refs.diff.current) refs.diff.current.volume = diffVolume;
  });
  // A click on the waveforms moves the active take there (a new object each click, so the same time seeks again).
  useEffect(() => {
    const el = refs[active].current;
    if (seek && el) el.currentTime = seek.sec;
  }, [seek]);
  const onPlay = (take: Take) => {
    setActive(take);
    for (const other of ['a', 'b', 'diff'] as Take[]) if (other !== take) refs[other].current?.pause();
  };
  const onTimeUpdate = (take: Take) => {
    const t = refs[take].current?.currentTime ?? 0;
    setPosition(t);
    onTime(t);
  };
  const switchAB = () => {
    const from = active === 'b' ? 'b' : 'a';
    const to = from === 'a' ? 'b' : 'a';
    const src = refs[from].current;
    const dst = refs[to].current;
    if (!src || !dst) return;
    const playing = !src.paused;
    const t = src.currentTime;
    src.pause();
    dst.currentTime = t;
    setActive(to);
    if (playing) void dst.play();
  };
  // S switches from anywhere on the page (as the studio's transport does), but not while typing or with a modifier.
  const switchRef = useRef(switchAB);
  switchRef.current = switchAB;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 's' && e.key !== 'S') || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      e.preventDefault();
      switchRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section className="players" aria-label="Listen">
      <h2>Listen</h2>
      {!audio.embedded && <p className="note" data-testid="audio-note">{audio.note}</p>}
      <div className="player-grid">
        {(['a', 'b', 'diff'] as Take[]).map((take) => (
          <label key={take} className={take === active ? 'player active' : 'player'}>
            <span className={`swatch ${take}`} />
            {LABEL[take]}
            <audio
              ref={refs[take]}
              src={tracks.urls[take]}
              controls
              preload="auto"
              data-testid={`player-${take}`}
              onPlay={() => onPlay(take)}
              onTimeUpdate={() => onTimeUpdate(take)}
              onSeeked={() => onTimeUpdate(take)}
            />
          </label>
        ))}
      </div>
      <div className="player-tools">
        <button type="button" onClick={switchAB} data-testid="switch-ab" title="Switch between A and B at the same position (S)" aria-keyshortcuts="S">
          Switch to {active === 'b' ? 'A' : 'B'} at {fmtTime(position)} (S)
        </button>
        <label>
          <input type="checkbox" checked={matched} disabled={audio.loudnessDeltaLU === null} onChange={(e) => setMatched(e.target.checked)} data-testid="match-loudness" />
          Match loudness{audio.loudnessDeltaLU === null ? ' (not measured)' : ` (B−A ${fmt(audio.loudnessDeltaLU, 2, ' LU')})`}
        </label>
        {audio.embedded && (
          <label>
            <input type="checkbox" checked={amplified} onChange={(e) => setAmplified(e.target.checked)} data-testid="diff-full-scale" />
            Play the difference at full scale (its real peak is {audio.diffMax.toPrecision(3)})
          </label>
        )}
      </div>
    </section>
  );
}

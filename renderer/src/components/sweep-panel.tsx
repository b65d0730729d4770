import { useEffect, useRef } from 'react';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/** A file input shown as a labelled button (the label is the button; the input keeps keyboard focus and the accessible name). */
function FileButton({ label, onFiles, folder = false, accept }: { label: string; onFiles(files: File[]): Promise<void> | void; folder?: boolean; accept?: string }) {
  const input = useRef<HTMLInputElement>(null);
  // A folder picker (Chromium, Firefox, Safari); React has no prop for the attribute.
  useEffect(() => {
    if (folder) input.current?.setAttribute('webkitdirectory', '');
  }, [folder]);
  return (
    <label className="file-button">
      {label}
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        accept={accept}
        onChange={async (e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) await onFiles(files);
          if (input.current) input.current.value = '';
        }}
      />
    </label>
  );
}

const bytesOf = async (f: File) => new Uint8Array(await f.arrayBuffer());

/**
 * The sidebar's way into sweeps: open a merged sweep.json or its whole folder (so the worst cases open
 * from their fixtures), and a second sweep to compare with; the dashboard itself is in the main view.
 */
export function SweepPanel() {
  const store = useStoreApi();
  const name = useStudio(sweepSelectors.name);
  const shown = useStudio(sweepSelectors.shown);
  return (
    <section className="panel" aria-labelledby="sweep-panel-title">
      <h2 id="sweep-panel-title">Sweep</h2>
      <div className="file-buttons">
        <FileButton label="Open sweep.json…" accept=".json,application/json" onFiles={async ([f]) => store.getState().openSweep(f.name, await bytesOf(f))} />
        <FileButton
          label="Open a sweep folder…"
          folder
          onFiles={(files) => store.getState().openSweepFolder(files.map((f) => ({ path: f.webkitRelativePath || f.name, read: () => bytesOf(f) })))}
        />
        {name && <FileButton label="Compare with another sweep.json…" accept=".json,application/json" onFiles={async ([f]) => store.getState().openSweepBefore(f.name, await bytesOf(f))} />}
      </div>
      {!name && <p className="muted small-text">The sweep.json that parity sweep merge wrote, or its whole folder so the worst cases open from their fixtures (docs/sweeps.md).</p>}
      {name && !shown && (
        <button type="button" className="small" onClick={() => store.getState().showSweep(true)}>
          Show the sweep dashboard
        </button>
      )}
    </section>
  );
}

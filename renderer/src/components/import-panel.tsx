import { useRef } from 'react';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { IMPORT_RULE, type PickedFile } from '../store/history/classify-import.js';
import { historySelectors } from '../store/history/history-selectors.js';
import { rememberSource } from '../transport/upload-sources.js';
import { useStoreApi, useStudio } from './store-context.js';

/** The picked files' bytes; each remembers its File, so an upload streams it from disk (upload-sources.ts). */
export async function readFiles(list: FileList | File[]): Promise<PickedFile[]> {
  return Promise.all([...list].map(async (f) => ({ name: f.name, bytes: rememberSource(new Uint8Array(await f.arrayBuffer()), f) })));
}

/** Open two WAVs (any engine), two traces, or both, to compare without synthesis; dropping them anywhere works too. */
export function ImportPanel() {
  const store = useStoreApi();
  const busy = useStudio(historySelectors.busy);
  const measuring = useStudio(comparisonSelectors.measuring);
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import</h2>
      <p className="muted small-text" data-testid="import-rule">
        {IMPORT_RULE} Or drop them on the window.
      </p>
      <input
        ref={input}
        id="import-files"
        type="file"
        multiple
        accept=".wav,.wave,.jsonl,.ndjson,.json,.safetensors,audio/wav"
        aria-label="Open WAV or trace files"
        onChange={async (e) => {
          const files = e.target.files;
          if (files && files.length > 0) await store.getState().importFiles(await readFiles(files));
          if (input.current) input.current.value = '';
        }}
      />
      {measuring ? <p className="muted">Measuring; progress and Cancel are under the verdict.</p> : busy === 'Import' && <p className="muted">Comparing…</p>}
    </section>
  );
}

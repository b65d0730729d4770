import { useEffect, useState } from 'react';
import { BundlePanel } from './bundle-panel.js';
import { CompareForm } from './compare-form.js';
import { DetailTabs } from './detail-tabs.js';
import { ForensicSections } from './forensic-sections.js';
import { HistoryPanel } from './history-panel.js';
import { ImportPanel, readFiles } from './import-panel.js';
import { Notices } from './notices.js';
import { ProgressPanel } from './progress-panel.js';
import { installShortcuts } from './shortcuts.js';
import { ShortcutsSheet } from './shortcuts-sheet.js';
import { StaleNote } from './stale-note.js';
import { SweepPanel } from './sweep-panel.js';
import { useStoreApi } from './store-context.js';
import { TransportBar } from './transport-bar.js';
import { VerdictBar } from './verdict-bar.js';
import { WaveformView } from './waveform-view.js';

export function App({ transportKind }: { transportKind: string }) {
  const store = useStoreApi();
  const [dragging, setDragging] = useState(false);
  useEffect(() => installShortcuts(store), [store]);
  return (
    <div
      className={`app ${dragging ? 'dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={async (e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer.files.length > 0) await store.getState().importFiles(await readFiles(e.dataTransfer.files));
      }}
    >
      {/* First in the tab order: past the form, import and history, to the verdict and the results. */}
      <a
        className="skip-link"
        href="#results"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('results')?.focus();
        }}
      >
        Skip to results
      </a>
      <header className="topbar">
        <h1>TTS Parity Studio</h1>
        <BundlePanel />
        <span className="muted">{transportKind}</span>
      </header>
      <aside className="sidebar" aria-label="Settings">
        <CompareForm />
        <ProgressPanel />
        <ImportPanel />
        <HistoryPanel />
        <SweepPanel />
      </aside>
      <main id="results" className="content" tabIndex={-1} aria-label="Results">
        <Notices />
        <StaleNote />
        <VerdictBar />
        <ForensicSections />
        <WaveformView />
        <TransportBar />
        <DetailTabs />
      </main>
      <ShortcutsSheet />
    </div>
  );
}

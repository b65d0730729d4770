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
import { BackToSweep, SweepDashboard } from './sweep-dashboard.js';
import { SweepPanel } from './sweep-panel.js';
import { useStoreApi, useStudio } from './store-context.js';
import { TransportBar } from './transport-bar.js';
import { VerdictBar } from './verdict-bar.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { viewSelectors } from '../store/view/view-selectors.js';
import { WaveformView } from './waveform-view.js';

export function App({ transportKind }: { transportKind: string }) {
  const store = useStoreApi();
  const [dragging, setDragging] = useState(false);
  const sidebarOpen = useStudio(viewSelectors.sidebarOpen);
  const sweepShown = useStudio(sweepSelectors.shown);
  useEffect(() => installShortcuts(store), [store]);
  return (
    <div
      className={`app ${dragging ? 'dragging' : ''} ${sidebarOpen ? '' : 'sidebar-closed'}`}
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
        <button
          type="button"
          className="small ghost sidebar-toggle"
          aria-expanded={sidebarOpen}
          aria-controls="sidebar"
          title={sidebarOpen ? 'Hide the settings panel (more room for the results)' : 'Show the settings panel'}
          onClick={() => store.getState().toggleSidebar()}
        >
          {sidebarOpen ? '⟨ Settings' : '⟩ Settings'}
        </button>
        <h1>TTS Parity Studio</h1>
        <BundlePanel />
        <span className="muted">{transportKind}</span>
      </header>
      <aside id="sidebar" className="sidebar" aria-label="Settings" hidden={!sidebarOpen}>
        <CompareForm />
        <ProgressPanel />
        <ImportPanel />
        <HistoryPanel />
        <SweepPanel />
      </aside>
      <main id="results" className="content" tabIndex={-1} aria-label="Results">
        <Notices />
        {sweepShown ? (
          <SweepDashboard />
        ) : (
          <>
            <BackToSweep />
            <StaleNote />
            <VerdictBar />
            <ForensicSections />
            <WaveformView />
            <TransportBar />
            <DetailTabs />
          </>
        )}
      </main>
      <ShortcutsSheet />
    </div>
  );
}

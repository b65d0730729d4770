import { BundlePanel } from './bundle-panel.js';
import { CompareForm } from './compare-form.js';
import { ProgressPanel } from './progress-panel.js';
import { VerdictPanel } from './verdict-panel.js';

export function App({ transportKind }: { transportKind: string }) {
  return (
    <main>
      <header>
        <h1>TTS Parity Studio</h1>
        <span className="muted">{transportKind}</span>
      </header>
      <BundlePanel />
      <CompareForm />
      <ProgressPanel />
      <VerdictPanel />
    </main>
  );
}

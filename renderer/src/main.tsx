import './zod-jitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { WebAudioPlayer } from './audio/web-audio-player.js';
import { App } from './components/app.js';
import { StoreContext } from './components/store-context.js';
import { pageStorage } from './store/job/form-persistence.js';
import { createStudioStore } from './store/studio-store.js';
import { pickTransport } from './transport/pick-transport.js';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

pickTransport().then(
  (transport) => {
    const player = new WebAudioPlayer();
    const store = createStudioStore(transport.studio, player, transport.shell, pageStorage());
    const disposers = [
      transport.studio.on('progress', (jobId, progress) => store.getState().trackProgress(jobId, progress)),
      transport.studio.on('historyChanged', () => void store.getState().loadHistory()),
      transport.studio.on('workerRestarted', (reason) => store.getState().notify('error', `The engine process restarted: ${reason}`, 'Run the synthesis again; your settings are kept.')),
      transport.shell?.onCommand((command) => {
        if (command === 'synthesize') void store.getState().start();
        if (command === 'cancel') void store.getState().cancel();
        if (command === 'export-fixture') void store.getState().exportCurrent();
      }),
      () => store.getState().detachPlayer(),
    ];
    // Every subscription is undone when the page goes away (a reload in the desktop app keeps the process).
    window.addEventListener('pagehide', () => disposers.forEach((dispose) => dispose?.()), { once: true });
    void store.getState().loadBundle();
    // For end-to-end tests and the zoom benchmark: the store and the player's clock, read-only use.
    (window as unknown as { __studio: unknown }).__studio = { store, player };
    root.render(
      <StrictMode>
        <StoreContext.Provider value={store}>
          <App transportKind={transport.kind === 'desktop' ? 'desktop app' : 'browser mode'} />
        </StoreContext.Provider>
      </StrictMode>,
    );
  },
  (error: Error) => {
    root.render(<p role="alert" className="error">{error.message}</p>);
  },
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/app.js';
import { StoreContext } from './components/store-context.js';
import { createStudioStore } from './store/studio-store.js';
import { pickTransport } from './transport/pick-transport.js';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

pickTransport().then(
  (transport) => {
    const store = createStudioStore(transport.studio);
    transport.studio.on('progress', (jobId, progress) => store.getState().trackProgress(jobId, progress));
    transport.shell?.onCommand((command) => {
      if (command === 'synthesize') void store.getState().start();
      if (command === 'cancel') void store.getState().cancel();
    });
    void store.getState().loadBundle();
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

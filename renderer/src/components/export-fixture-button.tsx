import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { historySelectors } from '../store/history/history-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/**
 * Exports the comparison on screen as a fixture folder; asks before replacing one that exists. In browser
 * mode the folder is written on the server, so the result offers it as a .zip download.
 */
export function ExportFixtureButton() {
  const store = useStoreApi();
  const id = useStudio(comparisonSelectors.historyId);
  const last = useStudio(historySelectors.lastExport);
  const pending = useStudio(historySelectors.pendingOverwrite);
  if (!id) return null;
  return (
    <div className="export" data-testid="export-fixture">
      <button type="button" onClick={() => void store.getState().exportCurrent()} title="Write this comparison as a fixture folder (both WAVs, the difference, the report) that parity gate can re-check">
        Export fixture
      </button>
      {pending && (
        <div role="alertdialog" aria-labelledby="overwrite-q" className="confirm">
          <p id="overwrite-q">{pending.dir} already exists. Replace it?</p>
          <button type="button" onClick={() => void store.getState().exportCurrent(true)}>
            Replace
          </button>
          <button type="button" className="ghost" onClick={() => store.getState().cancelOverwrite()}>
            Keep it
          </button>
        </div>
      )}
      {last && (
        <p className="small-text" data-testid="export-result">
          Exported to <code>{last.dir}</code>: {last.files.join(', ')}
          {/* Only browser mode hands out a download id: the folder is on the server, not the user's disk. */}
          {last.downloadId && (
            <>
              {' '}
              <a href={`/download/${last.downloadId}`} download title="The exported folder as one .zip, saved by your browser">
                Download .zip
              </a>
            </>
          )}
        </p>
      )}
    </div>
  );
}

import { useMemo, useState } from 'react';
import type { ReportPageData } from '../../electron/common/report/html/report-page-data.js';
import { DrillGraph } from '../src/components/drill-graph.js';
import { minusSigns } from '../src/lib/format.js';
import { CodesView } from './codes-view.js';
import { EndpointsView } from './endpoints-view.js';
import { LogitsView } from './logits-view.js';
import { OverlayView } from './overlay-view.js';
import { pageTracks } from './page-tracks.js';
import { Players } from './players.js';
import { RowsTable } from './rows-table.js';
import { stepsFigureOf } from '../../electron/common/draw/steps-figure.js';
import { StepsView } from './steps-view.js';

/** report.html: the verdict in words, the two endpoints (an endpoint comparison), players, waveforms, per-step |Δ|, codes, metrics, drill-down (the studio's graph, then its lines), report.md. */
export function ReportApp({ data }: { data: ReportPageData }) {
  const tracks = useMemo(() => (data.audio ? pageTracks(data.audio) : null), [data.audio]);
  const [position, setPosition] = useState(0);
  const [seek, setSeek] = useState<{ sec: number }>();
  const steps = useMemo(() => stepsFigureOf(data), [data]);
  return (
    <main>
      <header>
        <h1>{data.title}</h1>
        {data.verdict && (
          <p className={`verdict ${data.verdict}`} data-testid="verdict">
            {data.verdict}
          </p>
        )}
      </header>
      {data.warnings.map((w) => (
        <p key={w} className="warning">
          Warning: {w}
        </p>
      ))}
      {data.words.length > 0 && (
        <ul className="words" data-testid="words">
          {data.words.map((w) => (
            <li key={w}>{minusSigns(w)}</li>
          ))}
        </ul>
      )}
      {data.endpoints && <EndpointsView table={data.endpoints} />}
      {data.audio && tracks && (
        <>
          <Players audio={data.audio} tracks={tracks} onTime={setPosition} seek={seek} />
          <OverlayView tracks={tracks} sampleRate={data.audio.sampleRate} marker={data.marker} seams={data.seams} position={position} onSeek={(sec) => setSeek({ sec })} />
        </>
      )}
      {!data.audio && <p className="note">No audio in this comparison (traces only): nothing to play or draw as a waveform.</p>}
      {data.steps.length > 0 && <StepsView fig={steps} />}
      {data.logits.length > 0 && <LogitsView logits={data.logits} firstStep={data.firstStep} />}
      {data.codes.a.length > 0 && <CodesView a={data.codes.a} b={data.codes.b} />}
      <div className="tables">
        {data.metrics.length > 0 && (
          <section aria-label="Metrics">
            <h2>Audio metrics</h2>
            <RowsTable rows={data.metrics} testId="metrics" />
          </section>
        )}
        {data.tolerances.length > 0 && (
          <section aria-label="Tolerances">
            <h2>Tolerances</h2>
            <RowsTable rows={data.tolerances} testId="tolerances" />
          </section>
        )}
      </div>
      {(data.drill.length > 0 || data.drillReport) && (
        <section aria-label="Drill-down" data-testid="drill">
          <h2>Drill-down</h2>
          {data.drillReport && <DrillGraph report={data.drillReport} />}
          <ul>
            {data.drill.map((l) => (
              <li key={l}>{minusSigns(l)}</li>
            ))}
          </ul>
        </section>
      )}
      <details>
        <summary>report.md</summary>
        <pre>{data.markdown}</pre>
      </details>
    </main>
  );
}

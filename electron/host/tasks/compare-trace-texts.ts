import type { ImportTracesRequest } from '../../common/api/index.js';
import { compareTraces } from '../../common/forensics/compare-traces.js';
import type { ParityReport } from '../../common/report/report.js';
import { readTrace } from '../../common/trace/read-trace.js';

/** Two `tts-parity-trace/1` texts (no audio) localised and reported as `parity compare-trace` does. */
export async function compareTraceTexts(request: ImportTracesRequest & { createdAt: string }): Promise<{ report: ParityReport }> {
  const a = { file: request.a.name, trace: readTrace(request.a.text, request.a.name) };
  const b = { file: request.b.name, trace: readTrace(request.b.text, request.b.name) };
  return { report: (await compareTraces(a, b, { createdAt: request.createdAt })) as unknown as ParityReport };
}

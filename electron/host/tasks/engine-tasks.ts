import type { Audio } from '../../common/api/index.js';
import type { ParityReport } from '../../common/report/report.js';

/** What the worker's `compare` task returns to the host. */
export interface EngineCompareResult {
  profileA: string;
  profileB: string;
  report: ParityReport;
  a: Audio;
  b: Audio;
}

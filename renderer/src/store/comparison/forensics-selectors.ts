import { baselineLines, type Baseline } from '../../../../electron/common/forensics/baseline.js';
import type { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { teacherForcedLines, type TeacherForcedDrift } from '../../../../electron/common/forensics/drift.js';
import { seamLines, type SeamReport } from '../../../../electron/common/forensics/seams.js';
import { vocoderChunkLines } from '../../../../electron/common/forensics/vocoder-chunks.js';
import { memoByRef } from '../memo.js';
import type { StudioState } from '../studio-store.js';

/** The forensics a report may carry beyond the first divergence (docs/forensics.md). */
interface ForensicParts {
  divergence?: Divergence;
  teacherForced?: TeacherForcedDrift;
  seams?: SeamReport;
  baseline?: Baseline;
}

export interface ForensicSection {
  key: 'teacher-forcing' | 'seams' | 'vocoder-chunks' | 'baseline';
  title: string;
  lines: string[];
}

const sections = memoByRef((r: ForensicParts): ForensicSection[] => {
  const out: ForensicSection[] = [];
  if (r.teacherForced) out.push({ key: 'teacher-forcing', title: 'Teacher forcing', lines: teacherForcedLines(r.teacherForced) });
  if (r.seams) out.push({ key: 'seams', title: 'Seams', lines: seamLines(r.seams) });
  const chunks = r.divergence?.vocoderChunks;
  // The section's title already says "Vocoder chunks": its first line starts with the summary itself.
  if (chunks) out.push({ key: 'vocoder-chunks', title: 'Vocoder chunks', lines: vocoderChunkLines(chunks).map((l, i) => (i === 0 ? chunks.summary : l)) });
  if (r.baseline) out.push({ key: 'baseline', title: 'Determinism baseline', lines: baselineLines(r.baseline, r.divergence?.firstStep ?? null) });
  return out;
});

const NONE: ForensicSection[] = [];

export const forensicsSelectors = {
  /** The teacher-forced drift of the comparison on screen, when B was fed A's codes. */
  teacherForced: (s: StudioState): TeacherForcedDrift | undefined => (s.comparison?.report as ForensicParts | undefined)?.teacherForced,
  /** The teacher-forcing, seam, vocoder-chunk and baseline lines of the comparison on screen, as the CLI prints them. */
  sections: (s: StudioState): ForensicSection[] => (s.comparison ? sections(s.comparison.report as ForensicParts) : NONE),
};

import type { ModuleSidecar } from '../../common/trace/module-sidecar.js';
import type { TraceHeader } from '../../common/trace/trace-format.js';
import { dirname } from 'node:path';
import { oneSidecarWarning } from '../../common/trace/sidecar-rule.js';
import { openSidecarFile, sidecarPathOf } from './read-sidecar.js';

export interface SidecarPaths {
  /** Paths given by the user (`--modules-a/-b`), used instead of the headers' `modules`. */
  a?: string;
  b?: string;
}

export interface OpenedSidecars {
  pair?: { a: ModuleSidecar; b: ModuleSidecar };
  /** Why there is no module drill-down although one side has a sidecar. */
  warning?: string;
  close(): void;
}

interface TraceRef {
  file: string;
  header: TraceHeader;
}

/**
 * The module sidecars of two traces: the paths given, else each header's `modules` (relative to its
 * trace). Both sides are opened (a missing or malformed file is refused, naming it); with only one
 * side's, a warning says the drill-down needs both.
 */
export function openTraceSidecars(a: TraceRef, b: TraceRef, given: SidecarPaths = {}): OpenedSidecars {
  const pathOf = (t: TraceRef, path: string | undefined): string | undefined => path ?? (t.header.modules === undefined ? undefined : sidecarPathOf(t.file, t.header.modules));
  const [pa, pb] = [pathOf(a, given.a), pathOf(b, given.b)];
  // A header names its sidecar relative to the trace's folder (docs/trace-format.md): it stays there,
  // links included; a path the user gave is taken as given.
  const insideOf = (t: TraceRef, path: string | undefined) => (path === undefined ? { dir: dirname(t.file), words: "the trace's folder (a header names its sidecar relative to it)" } : undefined);
  if (pa === undefined && pb === undefined) return { close: () => undefined };
  if (pa === undefined || pb === undefined) {
    const warning = pa === undefined ? oneSidecarWarning({ side: 'B', trace: b.file, sidecar: pb! }, { side: 'A', trace: a.file }) : oneSidecarWarning({ side: 'A', trace: a.file, sidecar: pa }, { side: 'B', trace: b.file });
    return { warning, close: () => undefined };
  }
  const sa = openSidecarFile(pa, pa, insideOf(a, given.a));
  let sb;
  try {
    sb = openSidecarFile(pb, pb, insideOf(b, given.b));
  } catch (error) {
    sa.close();
    throw error;
  }
  return {
    pair: { a: sa, b: sb },
    close: () => {
      sa.close();
      sb.close();
    },
  };
}

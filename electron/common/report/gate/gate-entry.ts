/** One fixture of a `parity gate` run, as gate.html and the JUnit XML show it. */
export interface GateEntry {
  /** The fixture folder as the gate was given it. */
  dir: string;
  ok: boolean;
  /** What was compared and how it came out now, e.g. "graph vs graph,fault=stale-feedback@2: diverged at step 2 (talker-logits)". */
  summary: string;
  /** What changed since the fixture was sealed (edits, regressions), one line each. */
  problems: string[];
  /** The verdict report.json recorded when the fixture was written; null when it could not be read. */
  recordedVerdict: string | null;
  /** Link from the index to the fixture's report.html; null when the fixture has none. */
  reportHref: string | null;
  /** Seconds the check took. */
  seconds: number;
}

export interface GateRun {
  entries: GateEntry[];
  /** Fixtures in all shards. */
  total: number;
  shard: { index: number; count: number };
}

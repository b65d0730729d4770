import type { StateCreator } from 'zustand/vanilla';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import { caseKey } from '../../../../electron/common/sweep/sweep-case.js';
import { SweepSummary, type SummaryCase } from '../../../../electron/common/sweep/sweep-summary.js';
import type { StepRange } from '../../../../electron/common/draw/sweep-charts.js';
import type { ScatterDomain } from '../../../../electron/common/draw/sweep-scatter.js';
import type { PickedFile } from '../history/classify-import.js';
import type { StudioState } from '../studio-store.js';

/** Columns the case table sorts by. */
export type SweepSortKey = 'index' | 'verdict' | 'firstStep' | 'correlation' | 'loudnessDeltaLU' | 'lsdDb' | 'mcdDb';

/** What the case table shows: every field narrows ('' or 'all' = no narrowing); `text` searches the key and prompt. */
export interface SweepFilter {
  verdict: SummaryCase['verdict'] | 'all';
  stage: NonNullable<SummaryCase['stage']> | 'all';
  flip: 'all' | 'near-tie' | 'real';
  text: string;
  /** Only the cases whose verdict differs from the sweep opened beside (before/after). */
  changedOnly: boolean;
  /** Only the cases whose first divergent step is in this range (a bin of the histogram); null: any. */
  steps: StepRange | null;
}

export const NO_FILTER: SweepFilter = { verdict: 'all', stage: 'all', flip: 'all', text: '', changedOnly: false, steps: null };

/** The scatter's zoom (a brushed window: correlation × ΔLU); undefined: all the cases. */
export type SweepZoom = ScatterDomain | undefined;

/** A file of a picked folder: its path inside the pick (webkitRelativePath, `merged/sweep.json`) and its bytes on demand. */
export interface FolderFile {
  path: string;
  read(): Promise<Uint8Array>;
}

/** What a worst case's fixture folder holds that an import takes: its two traces, and its two WAVs when both are there. */
const FIXTURE_FILES = ['a.jsonl', 'b.jsonl', 'a.wav', 'b.wav'] as const;

export interface SweepSlice {
  /**
   * A merged sweep (sweep.json) opened in the studio, with the name of its file; when its whole folder was
   * opened, the files of the worst cases' fixtures by case key.
   */
  sweep?: { name: string; summary: SweepSummary; fixtures?: Record<string, FolderFile[]> };
  sweepSort: { key: SweepSortKey; descending: boolean };
  sweepFilter: SweepFilter;
  sweepZoom: SweepZoom;
  /** A second sweep opened beside the first (before a fix, say): the cases whose verdict changed come first. */
  sweepBefore?: { name: string; summary: SweepSummary };
  /** The main view shows the sweep dashboard (true) or the comparison; a case opened from it leaves a way back. */
  sweepShown: boolean;
  /** Sweep or comparison in the main view; the sweep keeps its filters, sort and zoom. */
  showSweep(shown: boolean): void;
  setSweepFilter(filter: Partial<SweepFilter>): void;
  zoomSweep(zoom: SweepZoom): void;
  /** Opens a second sweep.json to compare with (the same parsing and notices as openSweep). */
  openSweepBefore(name: string, bytes: Uint8Array): void;
  closeSweepBefore(): void;
  /** Reads a sweep.json the user picked (its bytes: the page names no path); a bad file is a notice. */
  openSweep(name: string, bytes: Uint8Array): void;
  /** Opens a merged folder (the --out of parity sweep merge): its sweep.json, and its worst cases' fixtures. */
  openSweepFolder(files: FolderFile[]): Promise<void>;
  closeSweep(): void;
  /** Sorts by `key`; the same key again reverses the order. */
  sortSweep(key: SweepSortKey): void;
  /**
   * Opens one case's comparison: from its fixture's traces and WAVs when the merged folder was opened
   * and the case is one of the worst (an import: nothing is synthesized); otherwise a profile sweep's
   * case is synthesized again with its prompt, seed, profiles and sampling (the form takes them, so
   * what runs is on screen); a trace sweep's case has nothing to synthesize, so a notice says to import
   * its two traces.
   */
  openSweepCase(c: SummaryCase): Promise<void>;
}

/** A picked sweep.json's summary, or undefined after a notice saying what is wrong with it. */
function parseSummary(get: () => StudioState, name: string, bytes: Uint8Array): SweepSummary | undefined {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    get().notify('error', `${name}: not JSON`, 'Open the sweep.json that parity sweep merge wrote.');
    return undefined;
  }
  const parsed = SweepSummary.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  get().notify('error', `${name}: not a sweep summary (${issue.path.map(String).join('.') || 'top level'}: ${issue.message})`, 'Open the sweep.json that parity sweep merge wrote.');
  return undefined;
}

export const createSweepSlice: StateCreator<StudioState, [], [], SweepSlice> = (set, get) => ({
  sweepSort: { key: 'index', descending: false },
  sweepFilter: NO_FILTER,
  sweepZoom: undefined,
  sweepShown: false,
  openSweep(name, bytes) {
    const summary = parseSummary(get, name, bytes);
    if (summary) set({ sweep: { name, summary }, sweepSort: { key: 'index', descending: false }, sweepFilter: NO_FILTER, sweepZoom: undefined, sweepShown: true });
  },
  openSweepBefore(name, bytes) {
    const summary = parseSummary(get, name, bytes);
    if (summary) set({ sweepBefore: { name, summary }, sweepShown: true });
  },
  closeSweepBefore: () => set((s) => ({ sweepBefore: undefined, sweepFilter: { ...s.sweepFilter, changedOnly: false } })),
  showSweep: (sweepShown) => set((s) => ({ sweepShown: sweepShown && s.sweep !== undefined })),
  setSweepFilter: (filter) => set((s) => ({ sweepFilter: { ...s.sweepFilter, ...filter } })),
  zoomSweep: (sweepZoom) => set({ sweepZoom }),
  async openSweepFolder(files) {
    // The shallowest sweep.json: the merged folder's own (a fixture folder holds none).
    const summaryFile = files.filter((f) => /(^|\/)sweep\.json$/.test(f.path)).sort((x, y) => x.path.split('/').length - y.path.split('/').length)[0];
    if (!summaryFile) {
      get().notify('error', 'No sweep.json in the folder', 'Open the --out folder of parity sweep merge.');
      return;
    }
    get().openSweep(summaryFile.path, await summaryFile.read());
    const opened = get().sweep;
    if (!opened || opened.name !== summaryFile.path) return;
    const root = summaryFile.path.slice(0, summaryFile.path.length - 'sweep.json'.length);
    const byPath = new Map(files.map((f) => [f.path, f]));
    const fixtures: Record<string, FolderFile[]> = {};
    for (const w of opened.summary.worst) {
      if (w.fixture === undefined) continue;
      const [a, b, wavA, wavB] = FIXTURE_FILES.map((name) => byPath.get(`${root}${w.fixture}/${name}`));
      if (a && b) fixtures[w.key] = wavA && wavB ? [a, b, wavA, wavB] : [a, b];
    }
    set({ sweep: { ...opened, fixtures } });
  },
  closeSweep: () => set({ sweep: undefined, sweepBefore: undefined, sweepShown: false }),
  sortSweep: (key) => set((s) => ({ sweepSort: { key, descending: s.sweepSort.key === key ? !s.sweepSort.descending : key !== 'index' && key !== 'correlation' } })),
  async openSweepCase(c) {
    const summary = get().sweep?.summary;
    if (!summary) return;
    const fixture = get().sweep?.fixtures?.[caseKey(c)];
    // The comparison takes the main view; the dashboard keeps its filters for "Back to sweep".
    set({ sweepShown: false });
    if (fixture) {
      let picked: PickedFile[];
      try {
        // Named by the fixture folder, so the history entry says which case it is.
        picked = await Promise.all(fixture.map(async (f) => ({ name: f.path.split('/').slice(-2).join('-'), bytes: await f.read() })));
      } catch (error) {
        get().notify('error', `${caseKey(c)}: its fixture could not be read (${error instanceof Error ? error.message : String(error)})`, 'Open the merged folder again.');
        return;
      }
      await get().importFiles(picked);
      return;
    }
    if (summary.mode !== 'profiles' || c.text === undefined || c.seed === null) {
      get().notify('info', `${c.id}: a trace sweep's case is not synthesized here`, `Import ${c.id}.jsonl from ${summary.a} and from ${summary.b} (and their WAVs) to see it.`);
      return;
    }
    get().setForm({ text: c.text, profileA: summary.a, profileB: summary.b, seed: c.seed, sampling: summary.sampling ?? Sampling.parse({}) });
    await get().start();
  },
});

import type { StateCreator } from 'zustand/vanilla';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import { caseKey } from '../../../../electron/common/sweep/sweep-case.js';
import { SweepSummary, type SummaryCase } from '../../../../electron/common/sweep/sweep-summary.js';
import type { PickedFile } from '../history/classify-import.js';
import type { StudioState } from '../studio-store.js';
import { NO_FILTER, type FolderFile } from '../sweep/sweep-slice.js';

/**
 * Opening a sweep and its cases: a picked sweep.json or merged folder (a bad file is a notice), and a case's
 * comparison, imported from its fixture or synthesized again through the form (the history and synthesis
 * workflows). The sweep slice keeps the dashboard's own state: sort, filters, zoom, shown.
 */
export interface SweepWorkflows {
  /** Reads a sweep.json the user picked (its bytes: the page names no path); a bad file is a notice. */
  openSweep(name: string, bytes: Uint8Array): void;
  /** Opens a second sweep.json to compare with (the same parsing and notices as openSweep). */
  openSweepBefore(name: string, bytes: Uint8Array): void;
  /** Opens a merged folder (the --out of parity sweep merge): its sweep.json, and its worst cases' fixtures. */
  openSweepFolder(files: FolderFile[]): Promise<void>;
  /**
   * Opens one case's comparison: from its fixture's traces and WAVs when the merged folder was opened
   * and the case is one of the worst (an import: nothing is synthesized); otherwise a profile sweep's
   * case is synthesized again with its prompt, seed, profiles and sampling (the form takes them, so
   * what runs is on screen); a trace sweep's case has nothing to synthesize, so a notice says to import
   * its two traces.
   */
  openSweepCase(c: SummaryCase): Promise<void>;
}

/** What a worst case's fixture folder holds that an import takes: its two traces, and its two WAVs when both are there. */
const FIXTURE_FILES = ['a.jsonl', 'b.jsonl', 'a.wav', 'b.wav'] as const;

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

export const createSweepWorkflows: StateCreator<StudioState, [], [], SweepWorkflows> = (set, get) => ({
  openSweep(name, bytes) {
    const summary = parseSummary(get, name, bytes);
    if (summary) set({ sweep: { name, summary }, sweepSort: { key: 'index', descending: false }, sweepFilter: NO_FILTER, sweepZoom: undefined, sweepShown: true });
  },
  openSweepBefore(name, bytes) {
    const summary = parseSummary(get, name, bytes);
    if (summary) set({ sweepBefore: { name, summary }, sweepShown: true });
  },
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

import { z } from 'zod';
import { AbxSaved, ExportLocation, SaveAbxRequest } from './abx.js';
import { DrillReport } from '../report/drill.js';
import { BundleInfo } from './bundle-info.js';
import { CompareRequest, ComparisonResult, ImportTracesRequest, ImportWavsRequest } from './comparison.js';
import { defineMethod } from './define-method.js';
import { Deleted, ExportedFixture, ExportFixtureRequest, HistoryList, HistoryRef } from './history.js';
import { Cancelled, JobRef, JobStarted } from './jobs.js';
import { SynthesisResult, SynthesizeRequest } from './synthesis.js';

const Empty = z.object({}).strict();

/**
 * The StudioApi method table. Transports loop over it; adding a method here and in StudioHost is all
 * a new feature needs.
 */
export const studioMethods = {
  bundleInfo: defineMethod('bundleInfo', Empty, BundleInfo),
  /** Starts one synthesis; progress comes as `progress` events, the result from `synthesisResult`. */
  synthesize: defineMethod('synthesize', SynthesizeRequest, JobStarted),
  synthesisResult: defineMethod('synthesisResult', JobRef, SynthesisResult),
  /** Starts profile A vs profile B on one prompt; the result is saved to history. */
  compare: defineMethod('compare', CompareRequest, JobStarted),
  comparisonResult: defineMethod('comparisonResult', JobRef, ComparisonResult),
  cancel: defineMethod('cancel', JobRef, Cancelled),
  /** Compares two WAVs from any engine (paths on the host, or bytes); saved to history. */
  importWavs: defineMethod('importWavs', ImportWavsRequest, ComparisonResult),
  /**
   * The same comparison as a job (progress as `progress` events, `cancel` stops it), so the page can show
   * the audio it decoded itself while the host measures; the result from `comparisonResult`, saved to history.
   */
  startImportWavs: defineMethod('startImportWavs', ImportWavsRequest, JobStarted),
  importTraces: defineMethod('importTraces', ImportTracesRequest, ComparisonResult),
  exportFixture: defineMethod('exportFixture', ExportFixtureRequest, ExportedFixture),
  listHistory: defineMethod('listHistory', Empty, HistoryList),
  openHistory: defineMethod('openHistory', HistoryRef, ComparisonResult),
  deleteHistory: defineMethod('deleteHistory', HistoryRef, Deleted),
  /**
   * Swap A/B: imports the files an entry was imported from again, with A and B exchanged (a new entry). Works
   * after a reopen or a restart, since the entry keeps the files (`HistoryEntry.swappable`).
   */
  swapHistory: defineMethod('swapHistory', HistoryRef, ComparisonResult),
  /** Keeps an ABX blind-test session with a history entry (abx.json); `openHistory` returns it. */
  saveAbx: defineMethod('saveAbx', SaveAbxRequest, AbxSaved),
  /** The default export folder for an entry in browser mode: `<dataDir>/exports/<id>`. */
  exportLocation: defineMethod('exportLocation', HistoryRef, ExportLocation),
  /**
   * Starts a drill-down (`compare --drill`) into the first divergent step of a saved A/B comparison:
   * progress as `progress` events, cancelled by `cancel`; the result from `drillResult`, saved with
   * the entry (drill.json) only when it completes.
   */
  drillHistory: defineMethod('drillHistory', HistoryRef, JobStarted),
  drillResult: defineMethod('drillResult', JobRef, DrillReport),
} as const;

export type StudioMethods = typeof studioMethods;
export type MethodName = keyof StudioMethods;
export const METHOD_NAMES = Object.keys(studioMethods) as MethodName[];

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(studioMethods, name);
}

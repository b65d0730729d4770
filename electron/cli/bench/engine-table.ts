import type { BenchResults } from './bench-results.js';

/** Targets of issue 7 (CPU, demo bundle, 2 cores), shown beside the measured values. */
export const TARGETS = {
  graphVsEagerTalkerStep: 1.3,
  graphVsEagerCodePredictorFrame: 1.3,
  graphJsOverheadShare: 0.15,
  streamRtf: 0.1,
  firstAudioMs: 150,
  heapGrowthMb: 5,
  lazyTableGrowthMb: 100,
  sweepMergeMs: 2000,
};

const pad = (rows: string[][]): string => {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => '  ' + r.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join('  ')).join('\n') + '\n';
};
const mark = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/** The engine part of the bench table: one row per profile, then ratios and memory against the targets. */
export function renderEngineTable(results: BenchResults): string {
  const { profiles, ratios, memory, engine, lazyTable, sweep } = results;
  if (!profiles || !ratios || !engine) return '';
  const rows = [['profile', 'prefill ms', 'talker step ms (p90)', 'code pred. frame ms (p90)', 'vocoder ms/s', 'rtf', 'first audio ms', 'JS share']];
  for (const [name, p] of Object.entries(profiles)) {
    rows.push([
      name,
      p.talkerPrefillMs.toFixed(2),
      `${p.talkerStepMs.median.toFixed(3)} (${p.talkerStepMs.p90.toFixed(3)})`,
      `${p.codePredictorFrameMs.median.toFixed(3)} (${p.codePredictorFrameMs.p90.toFixed(3)})`,
      p.vocoderMsPerAudioSecond.toFixed(1),
      p.rtf.toFixed(4),
      p.firstAudioMs.toFixed(1),
      p.jsOverheadShare.toFixed(3),
    ]);
  }
  const graph = profiles.graph;
  const stream = profiles['graph,vocoder=stream'];
  const lines = [
    `engine bench: "${engine.text}" (${graph?.frames ?? '?'} frames), greedy, ${engine.warmupRounds} warm-up + ${engine.repetitions} interleaved rounds`,
    pad(rows).trimEnd(),
    `  ratios (same run): graph vs eager talker step ${ratios.graphVsEagerTalkerStep.toFixed(2)}× (target ≥ ${TARGETS.graphVsEagerTalkerStep}: ${mark(ratios.graphVsEagerTalkerStep >= TARGETS.graphVsEagerTalkerStep)}), ` +
      `code predictor frame ${ratios.graphVsEagerCodePredictorFrame.toFixed(2)}× (≥ ${TARGETS.graphVsEagerCodePredictorFrame}: ${mark(ratios.graphVsEagerCodePredictorFrame >= TARGETS.graphVsEagerCodePredictorFrame)}), ` +
      `kv vs recompute step ${ratios.kvVsRecomputeStep.toFixed(2)}×`,
  ];
  if (graph && stream) {
    lines.push(
      `  targets: graph JS share ${graph.jsOverheadShare.toFixed(3)} (≤ ${TARGETS.graphJsOverheadShare}: ${mark(graph.jsOverheadShare <= TARGETS.graphJsOverheadShare)}), ` +
        `stream rtf ${stream.rtf.toFixed(4)} (≤ ${TARGETS.streamRtf}: ${mark(stream.rtf <= TARGETS.streamRtf)}), ` +
        `stream first audio ${stream.firstAudioMs.toFixed(1)} ms (≤ ${TARGETS.firstAudioMs}: ${mark(stream.firstAudioMs <= TARGETS.firstAudioMs)})`,
    );
  }
  if (memory) {
    lines.push(
      `  memory: ${memory.syntheses} × ${memory.profile}: heap growth ${memory.heapGrowthMbOver20.toFixed(2)} MB${memory.gc ? '' : ' (no GC available)'} (< ${TARGETS.heapGrowthMb}: ${mark(memory.heapGrowthMbOver20 < TARGETS.heapGrowthMb)}), RSS peak ${memory.rssPeakMb.toFixed(0)} MB`,
    );
  }
  if (lazyTable) {
    const t = lazyTable;
    lines.push(
      `  lazy table: ${t.textRows} × ${t.hidden} float16 (${t.tableFileMb.toFixed(0)} MB file): open grows RSS ${t.openGrowthMb.largeTable.toFixed(1)} MB vs ${t.openGrowthMb.smallTable.toFixed(1)} MB with a 262-row table, ` +
        `${t.tableGrowthMb.toFixed(1)} MB beyond the sessions (< ${TARGETS.lazyTableGrowthMb}: ${mark(t.tableGrowthMb < TARGETS.lazyTableGrowthMb)}); open ${t.openMs.largeTable.toFixed(0)} ms (hashes the file)`,
    );
  }
  if (sweep) {
    const rss = sweep.peakRssMb.map((p) => `${p.cases} cases ${p.mb === null ? 'n/a (no /usr/bin/time)' : `${p.mb.toFixed(0)} MB`}`).join(', ');
    lines.push(
      `  sweep: ${sweep.a} vs ${sweep.b}, ${sweep.rateCases} cases: ${sweep.casesPerMinute.jobs1.toFixed(1)} cases/min with --jobs 1, ${sweep.casesPerMinute.jobs2.toFixed(1)} with --jobs 2; peak RSS ${rss}; ` +
        `merge of ${sweep.merge.cases} cases ${sweep.merge.medianMs.toFixed(0)} ms (< ${TARGETS.sweepMergeMs}: ${mark(sweep.merge.medianMs < TARGETS.sweepMergeMs)}); ${(sweep.benchMs / 1000).toFixed(0)} s in all`,
    );
  }
  return lines.join('\n') + '\n';
}

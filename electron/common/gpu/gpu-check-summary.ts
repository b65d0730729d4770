import { z } from 'zod';

/** `summary.json` of scripts/gpu-check (python/gpu/gpu_check.py writes it; docs/gpu.md). */
export const GPU_CHECK_FORMAT = 'tts-parity-gpu-check/1';

export const GpuCheckStep = z
  .object({
    name: z.string(),
    status: z.enum(['passed', 'failed', 'timed-out', 'missing', 'skipped']),
    exit_code: z.number().int().nullable().optional(),
    seconds: z.number().optional(),
    reason: z.string().optional(),
    log: z.string().optional(),
    figures: z.unknown().optional(),
    files: z.array(z.string()).optional(),
  })
  .loose();
export type GpuCheckStep = z.infer<typeof GpuCheckStep>;

export const GpuCheckSummary = z
  .object({
    format: z.literal(GPU_CHECK_FORMAT),
    device: z.object({ name: z.string() }).loose(),
    seconds: z.number(),
    passed: z.boolean(),
    failed: z.array(z.string()),
    missing: z.array(z.string()),
    steps: z.array(GpuCheckStep),
  })
  .loose();
export type GpuCheckSummary = z.infer<typeof GpuCheckSummary>;

/** The lists among native-check's figures (python/gpu/gpu_check.py native_figures): pick timings and per-kernel profiles. */
const PickTimings = z.array(z.object({ V: z.number(), settings: z.string(), argmax_us: z.number(), sampled_us: z.number() }));
const KernelProfiles = z.array(z.object({ label: z.string(), launches: z.number(), us_per_step: z.number(), kernels: z.string() }));

/** One trace pair `parity gpu-compare` compared, as the report says. */
export interface GpuComparison {
  name: string;
  a: string;
  b: string;
  verdict: string;
  codesIdentical: boolean;
  firstDivergentStep: number | null;
  maxAbsDiff: number | null;
  nullDepthDb: number | null;
  folder: string;
}

/** The twin traces gpu-check wrote (steps twin-traces-<profile> whose trace and WAV came back). */
export function twinTraces(summary: GpuCheckSummary): { profile: string; trace: string; wav: string }[] {
  return summary.steps
    .filter((s) => s.name.startsWith('twin-traces-') && s.status === 'passed')
    .flatMap((s) => {
      const trace = s.files?.find((f) => f.endsWith('trace.jsonl'));
      const wav = s.files?.find((f) => f.endsWith('.wav'));
      return trace && wav ? [{ profile: s.name.slice('twin-traces-'.length), trace, wav }] : [];
    });
}

const cell = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(3)) : String(v));

/** The note for an issue: every step with its status and time, the native figures, the comparisons. */
export function renderGpuMarkdown(summary: GpuCheckSummary, comparisons: GpuComparison[]): string {
  const lines = [
    `# gpu-check on ${summary.device.name}`,
    '',
    `${summary.passed ? 'PASSED' : `FAILED (${summary.failed.join(', ')})`} in ${cell(summary.seconds)} s` +
      (summary.missing.length ? `; missing: ${summary.missing.join(', ')}` : ''),
    '',
    '| step | status | s | note |',
    '| --- | --- | --- | --- |',
    ...summary.steps.map((s) => `| ${s.name} | ${s.status} | ${cell(s.seconds)} | ${(s.reason ?? '').replace(/\|/g, '\\|')} |`),
  ];
  const native = summary.steps.find((s) => s.name === 'native-check')?.figures as Record<string, unknown> | undefined;
  if (native) {
    const keys = Object.keys(native).filter((k) => typeof native[k] === 'number');
    lines.push('', '## Native check (read from its output)', '', '| figure | value |', '| --- | --- |', ...keys.map((k) => `| ${k} | ${cell(native[k])} |`));
    // Each list read on its own: one that does not read is named, never printed half.
    const picks = native.pick_microbenchmark === undefined ? undefined : PickTimings.safeParse(native.pick_microbenchmark);
    if (picks && !picks.success) lines.push('', 'pick_microbenchmark: not read (not a list of {V, settings, argmax_us, sampled_us})');
    if (picks?.success && picks.data.length) {
      lines.push('', '| pick microbenchmark | greedy argmax µs | sampled µs per pick |', '| --- | --- | --- |');
      for (const p of picks.data) lines.push(`| V = ${p.V}, ${p.settings.replace(/\|/g, '\\|')} | ${cell(p.argmax_us)} | ${cell(p.sampled_us)} |`);
    }
    const profiles = native.profile === undefined ? undefined : KernelProfiles.safeParse(native.profile);
    if (profiles && !profiles.success) lines.push('', 'profile: not read (not a list of {label, launches, us_per_step, kernels})');
    for (const p of profiles?.success ? profiles.data : []) {
      lines.push('', `Profile, ${p.label}: ${p.launches} launches, ${cell(p.us_per_step)} µs per decode step: ${p.kernels}`);
    }
  }
  if (comparisons.length) {
    lines.push('', '## Traces compared here (logit tolerance 1e-4, audio 1e-3)', '', '| pair | verdict | codes | first divergent step | max abs diff | null depth dB |', '| --- | --- | --- | --- | --- | --- |');
    for (const c of comparisons)
      lines.push(`| ${c.name} | ${c.verdict} | ${c.codesIdentical ? 'identical' : 'differ'} | ${cell(c.firstDivergentStep)} | ${cell(c.maxAbsDiff)} | ${cell(c.nullDepthDb)} |`);
  }
  return lines.join('\n') + '\n';
}

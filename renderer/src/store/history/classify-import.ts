/** A file the user dropped or picked, read into memory. */
export interface PickedFile {
  name: string;
  bytes: Uint8Array;
}

interface TraceText {
  name: string;
  text: string;
}

export type ImportPlan =
  | { ok: true; kind: 'wavs'; a: PickedFile; b: PickedFile }
  | { ok: true; kind: 'traces'; a: TraceText; b: TraceText; wavA?: PickedFile; wavB?: PickedFile; modulesA?: PickedFile; modulesB?: PickedFile }
  | { ok: false; message: string; hint: string };

/** The rule, shown in the import panel's hint and in the refusals. */
export const IMPORT_RULE =
  'Two WAV files (A then B), two tts-parity-trace/1 files (A then B), or both traces with their two WAVs: each WAV goes with the trace of the same name (a.jsonl ↔ a.wav), otherwise the first WAV goes with the first trace. With traces, module sidecars (.safetensors) are optional per side, as in parity compare-trace: each goes with the trace whose header names it (or <trace>.modules.safetensors); both name the first module that differs, one alone gives a warning.';

const isTrace = (f: PickedFile) => /\.(jsonl|ndjson|trace|json)$/i.test(f.name);
const isSidecar = (f: PickedFile) => /\.safetensors$/i.test(f.name);
const base = (name: string) => name.split(/[\\/]/).pop() ?? name;
const stem = (name: string) => base(name).replace(/\.[^.]*$/, '').toLowerCase();
const ascii = (bytes: Uint8Array, from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
/** RIFF (or RF64 for files over 4 GiB) with form type WAVE, as every WAV file starts. */
const hasWavHeader = (f: PickedFile) => ['RIFF', 'RF64'].includes(ascii(f.bytes, 0)) && ascii(f.bytes, 8) === 'WAVE';
const names = (files: PickedFile[]) => (files.length === 0 ? 'none' : files.map((f) => f.name).join(', '));

/**
 * What to do with the picked files, in the order given: two traces are compared step by step (with
 * their WAVs, the audio too); anything that is not a trace must be audio, sent to the host as a WAV
 * (its decoder names what is wrong with a file that is not one).
 */
export function classifyImport(files: PickedFile[]): ImportPlan {
  const sidecars = files.filter(isSidecar);
  const traces = files.filter(isTrace);
  const audio = files.filter((f) => !isTrace(f) && !isSidecar(f));
  if (sidecars.length > 0 && (sidecars.length > 2 || traces.length !== 2)) {
    return {
      ok: false,
      message: `Module sidecars go with two traces, at most one each; got ${sidecars.length} sidecar(s) and ${traces.length} trace file(s): ${names(files)}.`,
      hint: `Pick the two traces together with their sidecars (one per trace, or none). ${IMPORT_RULE}`,
    };
  }
  if (audio.length === 1 && !hasWavHeader(audio[0])) {
    return {
      ok: false,
      message: `${audio[0].name} is neither a WAV file (it has no RIFF/WAVE header) nor a trace (.jsonl, .ndjson, .trace, .json).`,
      hint: IMPORT_RULE,
    };
  }
  if (audio.length === 1) {
    return {
      ok: false,
      message: `Only one WAV file (${audio[0].name}): a comparison needs a second WAV for B.`,
      hint: `Pick or drop both WAVs together (hold Ctrl or Shift to select two).${traces.length > 0 ? ' With traces, give both runs’ WAVs or none.' : ''} ${IMPORT_RULE}`,
    };
  }
  if (audio.length === 2 && traces.length === 0) return { ok: true, kind: 'wavs', a: audio[0], b: audio[1] };
  if (traces.length === 2 && (audio.length === 0 || audio.length === 2)) {
    const text = (f: PickedFile) => ({ name: f.name, text: new TextDecoder().decode(f.bytes) });
    const plan = { ok: true as const, kind: 'traces' as const, a: text(traces[0]), b: text(traces[1]), ...pairSidecars(sidecars, traces) };
    if (audio.length === 0) return plan;
    const swapped = stem(audio[0].name) === stem(traces[1].name) && stem(audio[1].name) === stem(traces[0].name);
    return { ...plan, wavA: swapped ? audio[1] : audio[0], wavB: swapped ? audio[0] : audio[1] };
  }
  return {
    ok: false,
    message: `Import needs two WAV files, two trace files, or two traces with their two WAVs; got ${audio.length} WAV and ${traces.length} trace file(s): ${names(files)}.`,
    hint: IMPORT_RULE,
  };
}

/** The file name a trace's header gives as its module sidecar (`modules`), lower case, if it has one. */
function headerSidecar(trace: PickedFile): string | undefined {
  const firstLine = new TextDecoder().decode(trace.bytes.subarray(0, 64 * 1024)).split('\n', 1)[0];
  try {
    const modules = (JSON.parse(firstLine) as { modules?: unknown }).modules;
    return typeof modules === 'string' ? base(modules).toLowerCase() : undefined;
  } catch {
    return undefined; // the host names what is wrong with the trace
  }
}

/** Sidecars for two traces: two are swapped when each is the one the other trace's header names (or its `<stem>.modules.safetensors`). */
function pairSidecars(sidecars: PickedFile[], traces: PickedFile[]): { modulesA?: PickedFile; modulesB?: PickedFile } {
  if (sidecars.length === 0) return {};
  const belongs = (sidecar: PickedFile, trace: PickedFile) => {
    const name = base(sidecar.name).toLowerCase();
    return name === headerSidecar(trace) || name === `${stem(trace.name)}.modules.safetensors`;
  };
  // One alone goes with B only when it is B's; the host warns that the other side has none.
  if (sidecars.length === 1) return belongs(sidecars[0], traces[1]) ? { modulesB: sidecars[0] } : { modulesA: sidecars[0] };
  const swapped = belongs(sidecars[0], traces[1]) && belongs(sidecars[1], traces[0]);
  return { modulesA: swapped ? sidecars[1] : sidecars[0], modulesB: swapped ? sidecars[0] : sidecars[1] };
}

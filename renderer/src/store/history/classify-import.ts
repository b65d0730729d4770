/** A file the user dropped or picked, read into memory. */
export interface PickedFile {
  name: string;
  bytes: Uint8Array;
}

export type ImportPlan =
  | { ok: true; kind: 'wavs'; a: PickedFile; b: PickedFile }
  | { ok: true; kind: 'traces'; a: { name: string; text: string }; b: { name: string; text: string } }
  | { ok: false; message: string; hint: string };

const isTrace = (f: PickedFile) => /\.(jsonl|ndjson|trace|json)$/i.test(f.name);

/**
 * What to do with the picked files: two traces are compared step by step; anything else must be two
 * audio files, sent to the host as WAVs (its decoder names what is wrong with a file that is not one).
 */
export function classifyImport(files: PickedFile[]): ImportPlan {
  const traces = files.filter(isTrace);
  const audio = files.filter((f) => !isTrace(f));
  if (audio.length === 2) return { ok: true, kind: 'wavs', a: audio[0], b: audio[1] };
  if (audio.length === 0 && traces.length === 2) {
    const text = (f: PickedFile) => ({ name: f.name, text: new TextDecoder().decode(f.bytes) });
    return { ok: true, kind: 'traces', a: text(traces[0]), b: text(traces[1]) };
  }
  return {
    ok: false,
    message: `Import needs two WAV files (A then B) or two trace files; got ${files.length === 0 ? 'none' : files.map((f) => f.name).join(', ')}.`,
    hint: 'Select or drop exactly two WAV files, or two tts-parity-trace/1 (.jsonl) files.',
  };
}

import { describe, expect, it } from 'vitest';
import { shownSource } from '../../../renderer/src/lib/shown-source.js';

const header = (engine: string, q: number, frameRate = 12.5) => ({ header: { schema: 'tts-parity-trace/1', engine, q, frameRate, sampleRate: 24000 } });

describe('the header names what is shown', () => {
  it('imported traces: engine, codebooks and rates (each side’s where they differ), not the demo bundle', () => {
    // The case: a 16-codebook Qwen3-TTS pair, which the header called "Demo bundle · 8 codebooks × 128".
    const qwen = header('qwen-tts 0.1.1 Qwen3-TTS (tiny, random weights)', 16);
    expect(shownSource({ kind: 'traces', traces: { a: qwen, b: qwen } })).toEqual({
      name: 'Imported traces',
      facts: ['qwen-tts 0.1.1 Qwen3-TTS (tiny, random weights)', '16 codebooks', '12.5 frames/s', '24000 Hz'],
      wideOnly: ['12.5 frames/s', '24000 Hz'], // a narrow window keeps them in their titles only
    });
    const mixed = shownSource({ kind: 'traces', traces: { a: header('vllm', 8), b: header('hf', 8, 25) } })!;
    expect(mixed.facts).toEqual(['A vllm / B hf', '8 codebooks', 'A 12.5 frames/s / B 25 frames/s', '24000 Hz']);
  });

  it('a delay-pattern trace pair names its codebook delays, and each side’s vocoder chunking when a trace records it', () => {
    // Higgs-Audio-v3 through vLLM-Omni: whole vs streamed Code2Wav (python/tests/vllm_omni/higgs/).
    const higgs = (chunks: number) => ({
      header: { ...header('vllm-omni 0.30.0', 8, 25).header, codebookDelays: [0, 1, 2, 3, 4, 5, 6, 7], vocoderChunks: Array.from({ length: chunks }, () => ({})) },
    });
    expect(shownSource({ kind: 'traces', traces: { a: higgs(1), b: higgs(3) } })!.facts).toEqual([
      'vllm-omni 0.30.0', '8 codebooks', 'codebook delays 0–7', 'vocoder A whole / B 3 chunks', '25 frames/s', '24000 Hz',
    ]);
    const dia = { header: { ...header('dia', 4).header, codebookDelays: [0, 8, 9, 10] } };
    expect(shownSource({ kind: 'traces', traces: { a: dia, b: { header: { ...dia.header, vocoderChunks: [{}] } } } })!.facts).toEqual([
      'dia', '4 codebooks', 'codebook delays 0, 8, 9, 10', 'vocoder A chunks not recorded / B whole', '12.5 frames/s', '24000 Hz',
    ]);
  });

  it('imported WAVs say so with their rate; a synthesis (and nothing) leaves the bundle’s line', () => {
    expect(shownSource({ metrics: { sampleRate: 48000 } })).toEqual({ name: 'Imported WAVs', facts: ['48000 Hz'] });
    expect(shownSource({ kind: 'profiles' })).toBeUndefined();
    expect(shownSource(undefined)).toBeUndefined();
  });

  it('a pair from two speech endpoints is named as such, not as imported files', () => {
    const vllm = header('vllm-omni 0.30.0 / vllm 0.30.0 eager', 16);
    expect(shownSource({ kind: 'traces', traces: { a: vllm, b: vllm }, endpoints: {} })!.name).toBe("Two endpoints' traces");
    expect(shownSource({ metrics: { sampleRate: 24000 }, endpoints: {} })).toEqual({ name: "Two endpoints' audio", facts: ['24000 Hz'] });
  });
});

import { createWriteStream } from 'node:fs';

/**
 * A generated tts-parity-trace/1 file of `steps` steps (talker mean/std/min/max/argmax and 8 codes per
 * step) for `parity bench`, the trace benchmarks and the CLI memory tests; from step `differFrom` on,
 * the logits move by 0.01 and code 0 by 1.
 */
export async function writeTrace(path: string, steps: number, differFrom: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write('{"schema":"tts-parity-trace/1","engine":"bench","q":8,"frameRate":12.5,"sampleRate":24000}\n');
  let chunk = '';
  for (let step = 1; step <= steps; step++) {
    const d = step >= differFrom ? 0.01 : 0;
    const mean = Math.sin(step) + d;
    chunk += `{"step":${step},"logits":{"mean":${mean},"std":${1 + 0.1 * Math.cos(step)},"min":${-5 + d},"max":${7 + d},"argmax":${step % 2048}},"codes":[${Array.from({ length: 8 }, (_, c) => (step * 7 + c * 13 + (step >= differFrom && c === 0 ? 1 : 0)) % 2048).join(',')}]}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await new Promise<void>((r) => out.end(() => r()));
}

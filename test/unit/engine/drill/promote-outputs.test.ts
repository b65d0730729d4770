import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promoteAllOutputs } from '../../../../electron/engine/drill/promote-outputs.js';
import { resolveDemoBundle } from '../../../../electron/engine/engine.js';
import { openSession, sessionIo } from '../../../../electron/engine/ort-session.js';

describe('promoteAllOutputs', () => {
  it('every demo export, promoted, opens in ONNX Runtime (unoptimised and optimised) with every node output as an output, types inferred', async () => {
    const dir = await resolveDemoBundle();
    const m = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
    const files = new Set<string>([m.embed.export.file]);
    for (const net of [m.talker, m.codePredictor, m.vocoder]) for (const e of Object.values(net.exports) as { file: string }[]) files.add(e.file);
    expect(files.size).toBeGreaterThanOrEqual(13);
    for (const file of files) {
      const promoted = promoteAllOutputs(await readFile(join(dir, file)), file);
      const expected = new Set([...promoted.outputs, ...promoted.nodes.flatMap((n) => n.outputs.filter(Boolean))]);
      for (const optimize of [false, true]) {
        const { session } = await openSession(promoted.bytes, { optimize, ep: 'cpu' });
        const outs = sessionIo(session).outputs;
        await session.release();
        expect(new Set(outs.map((o) => o.name)), `${file} optimize=${optimize}`).toEqual(expected);
        expect(outs.filter((o) => o.dtype === 'non-tensor' || o.dtype === undefined), file).toEqual([]);
      }
    }
  });

  it('an unreadable file is an error naming it', () => {
    expect(() => promoteAllOutputs(Uint8Array.of(0xff, 0xff, 0xff), 'broken.onnx')).toThrow(/broken\.onnx/);
  });
});

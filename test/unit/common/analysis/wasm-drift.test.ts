import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedModules } from '../../../../scripts/wasm-modules.js';

describe('generated WebAssembly modules', () => {
  it('each *.wasm.ts is its .wat assembled (run `npm run generate:wasm` after editing a .wat)', async () => {
    const modules = await generatedModules();
    expect(modules.length).toBeGreaterThan(0);
    for (const { source, target, text } of modules) {
      const generated = readFileSync(target, 'utf8');
      expect(
        generated,
        `${relative(process.cwd(), target)} differs from ${relative(process.cwd(), source)}`,
      ).toBe(text);
    }
  });
});

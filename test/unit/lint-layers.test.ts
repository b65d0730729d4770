import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js, checked by linting planted files: in each layer one import it may
// make passes, and each import it may not make is refused with the layer's "Bad layering" message.
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const planted = x;\n`, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases: { file: string; allowed: string; refused: string[] }[] = [
  { file: 'electron/common/planted.ts', allowed: "import { x } from './errors.js';", refused: ["import { x } from 'node:fs';", "import { x } from '../engine/engine.js';", "import { x } from 'electron';"] },
  { file: 'electron/engine/planted.ts', allowed: "import { x } from '../common/errors.js';", refused: ["import { x } from '../host/studio-host.js';", "import { x } from 'onnxruntime-node';", "import { x } from 'electron';"] },
  { file: 'electron/host/planted.ts', allowed: "import { x } from '../engine/engine.js';", refused: ["import { x } from '../server/studio-server.js';", "import { x } from '../cli/main.js';", "import { x } from 'onnxruntime-node';"] },
  { file: 'electron/server/planted.ts', allowed: "import { x } from '../host/studio-host.js';", refused: ["import { x } from '../cli/main.js';", "import { x } from '../main/main.js';", "import { x } from 'electron';"] },
  { file: 'electron/cli/planted.ts', allowed: "import { x } from '../server/studio-server.js';", refused: ["import { x } from '../main/main.js';", "import { x } from '../../renderer/src/main.js';", "import { x } from 'electron';"] },
  { file: 'electron/main/planted.ts', allowed: "import { x } from 'electron';", refused: ["import { x } from '../engine/engine.js';", "import { x } from '../cli/main.js';", "import { x } from '../server/studio-server.js';"] },
  { file: 'electron/preload/planted.ts', allowed: "import { x } from 'electron';", refused: ["import { x } from 'node:fs';", "import { x } from '../host/studio-host.js';"] },
  { file: 'renderer/src/planted.tsx', allowed: "import { x } from '../../electron/common/errors.js';", refused: ["import { x } from 'electron';", "import { x } from '../../electron/host/studio-host.js';", "import { x } from 'node:path';"] },
];

describe('layer rules (eslint.config.js)', () => {
  it.each(cases)('$file: imports down pass, imports across or up are refused', async ({ file, allowed, refused }) => {
    expect(await problems(file, allowed)).toEqual([]);
    for (const source of refused) {
      const found = await problems(file, source);
      expect(found, source).toHaveLength(1);
      expect(found[0], source).toMatch(/Bad layering: /);
    }
  });

  it('lets only ort-session.ts and its loader import onnxruntime-node', async () => {
    for (const file of ['electron/engine/ort-session.ts', 'electron/engine/ort-environment.ts']) {
      expect(await problems(file, "import { x } from 'onnxruntime-node';"), file).toEqual([]);
    }
    expect(await problems('electron/engine/run/talker-loop.ts', "import { x } from 'onnxruntime-node';")).toEqual([expect.stringMatching(/only in ort-session\.ts/)]);
  });
});

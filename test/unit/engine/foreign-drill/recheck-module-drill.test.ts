import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { drillModules } from '../../../../electron/common/forensics/module-drill.js';
import { openSidecarFile } from '../../../../electron/engine/foreign-drill/read-sidecar.js';
import { recheckModuleDrill } from '../../../../electron/engine/foreign-drill/recheck-module-drill.js';
import { sidecarBytes } from '../../common/trace/sidecar-bytes.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-recheck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (side: string, mlp: number) =>
  writeFileSync(join(dir, `${side}.modules.safetensors`), sidecarBytes([{ key: '2/00000/embed', shape: [1], values: [1] }, { key: '2/00001/mlp', shape: [1], values: [mlp] }]));

describe('gate re-check of a module drill-down', () => {
  it('passes while the stored sidecars give the recorded finding, and names the change when they do not', () => {
    write('a', 1);
    write('b', 2);
    const [a, b] = [openSidecarFile(join(dir, 'a.modules.safetensors')), openSidecarFile(join(dir, 'b.modules.safetensors'))];
    const stored = drillModules(2, a, b);
    a.close();
    b.close();
    expect(recheckModuleDrill(dir, stored, 2)).toEqual([]);
    write('b', 1);
    expect(recheckModuleDrill(dir, stored, 2)).toEqual(['module drill: recorded found at step 2, module mlp, now nothing-differs at step 2']);
  });
});

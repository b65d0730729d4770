import { join } from 'node:path';
import { drillModules } from '../../common/forensics/module-drill.js';
import type { ModuleDrillReport } from '../../common/report/module-drill.js';
import { openSidecarFile } from './read-sidecar.js';

/** What a module drill found, in words: status, step and module. */
function moduleDrillKey(d: ModuleDrillReport): string {
  return `${d.status}${d.step === null ? '' : ` at step ${d.step}`}${d.module ? `, module ${d.module.name}` : ''}`;
}

/**
 * `parity gate` on a compare-trace folder with a module drill-down: the drill again over the sidecar
 * copies stored in the folder (a.modules.safetensors, b.modules.safetensors) at the step the traces
 * diverge at now, with the recorded tolerance; a problem line when it finds something else.
 */
export function recheckModuleDrill(dir: string, stored: ModuleDrillReport, firstStep: number | null): string[] {
  const a = openSidecarFile(join(dir, 'a.modules.safetensors'));
  try {
    const b = openSidecarFile(join(dir, 'b.modules.safetensors'));
    try {
      const now = drillModules(firstStep, a, b, stored.tolerance);
      return moduleDrillKey(now) === moduleDrillKey(stored) ? [] : [`module drill: recorded ${moduleDrillKey(stored)}, now ${moduleDrillKey(now)}`];
    } finally {
      b.close();
    }
  } finally {
    a.close();
  }
}

import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RerunSpec } from '../../common/report/comparison-report.js';

/**
 * `rerun.bundleFromFixture` for a fixture written into `dir`: the bundle folder as `parity gate` finds
 * it from the fixture folder, wherever the gate runs. A bundle given as a relative path is recorded
 * relative to the fixture (`./` or `../`, forward slashes), so a checkout holding both can move or be
 * cloned elsewhere; an absolute one stays absolute (a shared model store outside the checkout). The
 * demo bundle has no folder: nothing is recorded.
 */
export function bundleFromFixture(bundle: string, dir: string): string | undefined {
  if (bundle === 'demo') return undefined;
  if (isAbsolute(bundle)) return bundle;
  const rel = relative(resolve(dir), resolve(bundle)).split(sep).join('/');
  return rel.startsWith('..') ? rel : `./${rel || '.'}`;
}

/** The rerun spec as a fixture written into `dir` records it (with `bundleFromFixture`). */
export function rerunForFixture(rerun: RerunSpec, dir: string): RerunSpec {
  const fromFixture = bundleFromFixture(rerun.bundle, dir);
  return fromFixture === undefined ? rerun : { ...rerun, bundleFromFixture: fromFixture };
}

/**
 * The bundle `parity gate` opens for the fixture in `dir`: "demo", or a folder path. `bundleFromFixture`
 * is resolved against the fixture folder. A fixture written before it was recorded has only `bundle`,
 * as given where that comparison ran: resolved against the current folder, as it was written.
 */
export function fixtureBundle(dir: string, rerun: RerunSpec): string {
  if (rerun.bundleFromFixture !== undefined) return resolve(dir, rerun.bundleFromFixture);
  return rerun.bundle;
}

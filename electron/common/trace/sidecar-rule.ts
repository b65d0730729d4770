/**
 * The one rule for module sidecars, in `parity compare-trace` and the studio's import alike: each side's
 * sidecar is optional; with both, the module drill-down names the first module that differs; with one,
 * the comparison goes on and this warning says why there is no drill-down and how to get one.
 */
export function oneSidecarWarning(has: { side: 'A' | 'B'; trace: string; sidecar: string }, lacks: { side: 'A' | 'B'; trace: string }): string {
  return `only one side has a module sidecar: ${has.side} (${has.trace}) has ${has.sidecar}, ${lacks.side} (${lacks.trace}) has none, so there is no module drill-down (record ${lacks.side} with modules too, and give both sidecars)`;
}

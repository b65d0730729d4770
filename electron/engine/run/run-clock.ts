/** Sums the wall time spent inside ORT session.run calls (SynthesisResult.timings.sessionRunMs). */
export class RunClock {
  ms = 0;

  async time<T>(fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.ms += performance.now() - t0;
    }
  }

  /** Adds the time since `t0` (a performance.now() reading): for per-step runs, timed without a closure. */
  addSince(t0: number): void {
    this.ms += performance.now() - t0;
  }
}

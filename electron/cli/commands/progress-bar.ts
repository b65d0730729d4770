import cliProgress from 'cli-progress';
import { terminalSafe } from '../../common/text/terminal-safe.js';

/**
 * A progress bar on stderr, shown only on a TTY and only once the work has run for a second (short
 * runs stay quiet). `update` is cheap to call every step; `stop` clears it.
 */
export function lazyProgressBar(label: string): { update(prefix: string, value: number, total: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  return {
    update(raw, value, total) {
      const prefix = terminalSafe(raw);
      if (!bar) {
        if (Date.now() - started < 1000) return;
        bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: `${label} {prefix} [{bar}] {value}/{total}`, clearOnComplete: true, hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, value, { prefix });
      }
      bar.setTotal(total);
      bar.update(value, { prefix });
    },
    stop() {
      bar?.stop();
    },
  };
}

import { removePendingTemporaries } from '../host/fixture/pending-temporaries.js';
import { printErr, controlErr } from './print.js';

const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

/**
 * Ctrl-C (or SIGTERM/SIGHUP) during long work: remove the temporaries of outputs still being written
 * (finished outputs are already renamed into place, so no folder or file is left half-written), give
 * back the cursor a progress bar hid, say so in one line, and exit 128 + the signal's number (130 for
 * Ctrl-C), as shells do. `progress` says how far the work got, e.g. "2 of 5 fixtures checked"; by default
 * that no output was left half-written.
 */
export function exitOnInterrupt(command: string, progress: () => string = () => 'no output was left half-written'): void {
  for (const [signal, number] of Object.entries(SIGNALS)) {
    process.once(signal, () => {
      removePendingTemporaries();
      const cursor = process.stderr.isTTY ? '\x1b[?25h\r\x1b[K' : '';
      controlErr(cursor);
      printErr(`parity ${command}: interrupted (${signal}); ${progress()}\n`);
      process.exit(128 + number);
    });
  }
}

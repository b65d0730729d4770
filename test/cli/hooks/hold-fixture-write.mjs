// Test-side --import hook: the first file written into a temporary fixture folder (`.NAME.tmp-XXXX/`)
// is written for real, then the folder's path goes to the file PARITY_TEST_MARKER and that write never
// finishes, so the test's Ctrl-C lands while the temporary exists (and is tracked for cleanup).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncBuiltinESMExports } from 'node:module';

const writeFile = fsp.writeFile;
fsp.writeFile = async (path, ...rest) => {
  await writeFile(path, ...rest);
  if (/\.tmp-[^/]+$/.test(dirname(String(path)))) {
    fs.writeFileSync(process.env.PARITY_TEST_MARKER, dirname(String(path)));
    // Keeps the event loop alive (a bare pending promise would not) until the signal ends the process.
    await new Promise(() => setInterval(() => undefined, 60_000));
  }
};
syncBuiltinESMExports();

// `npm run generate:wasm`: assembles electron/common/analysis/wasm/*.wat into the *.wasm.ts modules the
// analysis loads (scripts/wasm-modules.ts). Run it after editing a .wat; the drift test fails until you do.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generatedModules } from './wasm-modules.js';

for (const { target, text } of await generatedModules()) {
  writeFileSync(target, text);
  console.log(`wrote ${relative(process.cwd(), target)}`);
}

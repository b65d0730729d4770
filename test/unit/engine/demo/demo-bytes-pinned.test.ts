import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { DEMO_BUNDLE_VERSION } from '../../../../electron/engine/demo/resolve-demo-bundle.js';

describe('the built-in demo bundle is byte for byte what it was', () => {
  it('sha256 over every file (name, then bytes, in build order) is the pinned value of demo bundle v4', () => {
    // Regression value, not a reference: the builder's own output at commit 88af336, before bundle.json
    // grew the fields of issue 14 (which must leave the built-in bundle untouched). A deliberate change
    // of the demo bumps DEMO_BUNDLE_VERSION and this value together.
    const h = createHash('sha256');
    for (const [name, bytes] of demoBundleFiles()) h.update(name).update(bytes);
    expect(DEMO_BUNDLE_VERSION).toBe(4);
    expect(h.digest('hex')).toBe('46faf5f1c7f907a101eff11d231bffa830484280e35563b680286e1505e31e75');
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { DEMO_BUNDLE_VERSION } from '../../../../electron/engine/demo/resolve-demo-bundle.js';

const sha = (files: [string, Uint8Array][]): string => {
  const h = createHash('sha256');
  for (const [name, bytes] of files) h.update(name).update(bytes);
  return h.digest('hex');
};

describe('the built-in demo bundle is byte for byte what it was', () => {
  it('sha256 over every file (name, then bytes, in build order) is the pinned value of demo bundle v5', () => {
    // Regression value, not a reference: the builder's own output when v5 added the batched exports
    // (issue 17). A deliberate change of the demo bumps DEMO_BUNDLE_VERSION and this value together.
    expect(DEMO_BUNDLE_VERSION).toBe(5);
    expect(sha([...demoBundleFiles()])).toBe('4d417dee9b414f3ecb5879695ea4830aea4b11f7760dc6affc7c37b9d044dc32');
  });

  it('v5 left every batch-1 model file of v4 untouched: only bundle.json and the new *.batch*.onnx files differ', () => {
    // Regression value: the same sha256 over v4's model files (bundle.json left out), computed at commit
    // f84ef9b before the batched exports were added.
    const batchOne = [...demoBundleFiles()].filter(([name]) => name !== 'bundle.json' && !/\.batch\d*\.onnx$/.test(name));
    expect(batchOne).toHaveLength(15);
    expect(sha(batchOne)).toBe('200a831032683ab8a317982c6e7be2773e45090f6fda864d542772a56d6083c2');
  });
});

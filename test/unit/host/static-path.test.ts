import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticFilePath } from '../../../electron/host/static-path.js';

describe('staticFilePath (app:// and http:// serving of the built renderer)', () => {
  const root = '/opt/studio/renderer';

  it("maps '/' to index.html and other paths to files under the root, decoded", () => {
    expect(staticFilePath(root, '/')).toBe(join(root, 'index.html'));
    expect(staticFilePath(root + sep, '/assets/a.js')).toBe(join(root, 'assets', 'a.js'));
    expect(staticFilePath(root, '/assets/a%20b.js')).toBe(join(root, 'assets', 'a b.js'));
  });

  it('refuses traversal, the root itself, a sibling folder sharing the prefix, and bad percent-encoding', () => {
    expect(staticFilePath(root, '/../secret.txt')).toBeUndefined();
    expect(staticFilePath(root, '/..%2f..%2fetc/passwd')).toBeUndefined();
    expect(staticFilePath(root, '/%2e%2e/renderer-evil/x.js')).toBeUndefined();
    expect(staticFilePath(root, '/.')).toBeUndefined();
    expect(staticFilePath(root, '/%E0%A4%A')).toBeUndefined();
  });
});

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parityCommand } from '../../../electron/host/parity-command.js';

describe('parityCommand: how report.md starts a parity command where it was made', () => {
  it('is the installed `parity` when the launcher lies inside a node_modules folder', () => {
    expect(parityCommand('/usr/local/lib/node_modules/tts-parity-studio/bin/parity.js')).toEqual(['parity']);
    expect(parityCommand('/home/me/.npm/_npx/1a2b/node_modules/tts-parity-studio/bin/parity.js')).toEqual(['parity']);
  });

  it('is node and the absolute launcher in a checkout, even one whose folder name contains "node_modules"', () => {
    expect(parityCommand('/work/tts-parity-studio/bin/parity.js')).toEqual(['node', '/work/tts-parity-studio/bin/parity.js']);
    expect(parityCommand('/work/node_modules-notes/bin/parity.js')).toEqual(['node', '/work/node_modules-notes/bin/parity.js']);
  });

  it("by default names this checkout's own bin/parity.js", () => {
    const [node, launcher] = parityCommand();
    expect(node).toBe('node');
    expect(launcher).toBe(resolve('bin/parity.js'));
    expect(existsSync(launcher)).toBe(true);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../electron/common/text/terminal-safe.js';

const CLI = join(__dirname, '..', '..', '..', 'electron', 'cli');

describe('terminalSafe', () => {
  it('escapes every C0 control but tab and newline, DEL and every C1 control; leaves the rest', () => {
    for (let code = 0; code <= 0xa0; code++) {
      const c = String.fromCharCode(code);
      const kept = c === '\t' || c === '\n' || (code >= 0x20 && code < 0x7f) || code === 0xa0;
      expect(terminalSafe(c), `U+${code.toString(16)}`).toBe(kept ? c : `\\u${code.toString(16).padStart(4, '0')}`);
    }
    expect(terminalSafe('a\u001b[2Jb\u009b31m é ✓')).toBe('a\\u001b[2Jb\\u009b31m é ✓');
    // JSON stays JSON: a C1 character inside a string becomes its \u escape, the same string.
    const json = JSON.stringify({ engine: 'x\u009by\u007f' });
    expect(JSON.parse(terminalSafe(json))).toEqual(JSON.parse(json));
  });
});

describe('every CLI printer goes through cli/print.ts', () => {
  it('no file under electron/cli writes to process.stdout or process.stderr but print.ts', () => {
    const files = readdirSync(CLI, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== 'print.ts');
    const direct = files.filter((f) => /process\.(stdout|stderr)\.write\(|console\.(log|error|warn)\(/.test(readFileSync(join(CLI, f), 'utf8')));
    expect(direct).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { fsReason } from '../../../electron/common/fs-reason.js';

describe('fsReason', () => {
  it('puts a known errno code in words, whatever the message says', () => {
    const error = Object.assign(new Error("EACCES: permission denied, mkdtemp '/x/.out.tmp-Ab12'"), { code: 'EACCES' });
    expect(fsReason(error)).toBe('permission denied');
    expect(fsReason({ code: 'ENOSPC' })).toBe('no space left on the device');
    expect(fsReason({ code: 'ENOTDIR' })).toBe('a parent is a file, not a folder');
  });

  it('falls back to the message for an unknown code, and to the text of a non-error', () => {
    expect(fsReason(Object.assign(new Error('too many links'), { code: 'EMLINK' }))).toBe('too many links');
    expect(fsReason(Object.assign(new Error('inherited'), { code: 'toString' }))).toBe('inherited');
    expect(fsReason('plain')).toBe('plain');
    expect(fsReason(null)).toBe('null');
  });
});

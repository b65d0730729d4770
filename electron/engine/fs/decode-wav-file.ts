import { closeSync, readSync } from 'node:fs';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { decodeWavFrom, type DecodedWav } from '../../common/wav/decode-wav.js';
import { openCheckedSync, type ReadRules } from './read-checked.js';

/**
 * A WAV file decoded as decodeWav decodes its bytes, read a block at a time (decodeWavFrom), so only its
 * float32 samples are held, never the file. The file is checked as readChecked checks it (a regular file
 * within the limit) and read up to the size it had when opened; errors name `rules.label` or the path.
 */
export function decodeWavFile(path: string, rules: ReadRules = {}): DecodedWav {
  const name = rules.label ?? path;
  const { fd, size } = openCheckedSync(path, rules);
  try {
    const source = {
      size,
      read(offset: number, into: Uint8Array): number {
        let done = 0;
        try {
          while (done < into.length) {
            const n = readSync(fd, into, done, into.length - done, offset + done);
            if (n === 0) break;
            done += n;
          }
        } catch (error) {
          throw new InputError(`${name}: cannot read (${fsReason(error)})`, name);
        }
        return done;
      },
    };
    return decodeWavFrom(source, name);
  } finally {
    closeSync(fd);
  }
}

import { constants, type Stats } from 'node:fs';
import { access, lstat, readlink, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsReason } from '../../common/fs-reason.js';
import { kindOf } from '../../engine/fs/read-checked.js';

/** `stat`, or undefined when nothing is there (ENOENT) or an ancestor is a file (ENOTDIR); other errors throw. */
export async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * The link at `path` when it is a symbolic link whose target does not exist (stat sees nothing there, but
 * writing would replace the link itself), else undefined. Every output check looks at links themselves.
 */
export async function danglingLink(path: string): Promise<string | undefined> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return undefined;
    return await readlink(path);
  } catch {
    return undefined;
  }
}

/**
 * Why `target` (an absolute path) cannot be created, or undefined when it can: its nearest existing
 * ancestor must be a folder this process can write in (missing folders between are created when
 * writing). Checks only; writes nothing. The problem names the ancestor, e.g. "/a/b is a file, not a
 * folder", "cannot write in /a (permission denied)".
 */
export async function parentProblem(target: string): Promise<string | undefined> {
  let ancestor = dirname(target);
  for (;;) {
    let found: Stats | undefined;
    try {
      found = await statOrUndefined(ancestor);
    } catch (error) {
      return `cannot read ${ancestor} (${fsReason(error)})`;
    }
    if (found) {
      if (!found.isDirectory()) return `${ancestor} is ${kindOf(found)}, not a folder`;
      break;
    }
    // dirname('/') is '/', which always exists, so the walk ends.
    ancestor = dirname(ancestor);
  }
  try {
    await access(ancestor, constants.W_OK);
  } catch (error) {
    return `cannot write in ${ancestor} (${fsReason(error)})`;
  }
  return undefined;
}

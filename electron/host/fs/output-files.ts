import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { trackTemporary, untrackTemporary } from '../fixture/pending-temporaries.js';
import { danglingLink, parentProblem, statOrUndefined } from './writable-target.js';
import { kindOf } from '../../engine/fs/read-checked.js';

/**
 * The one writer of the tool's output files (the CLI's --out, --html, --junit, bench and history files,
 * sweep shard headers): refusal rules checked before anything is written, each file written under a
 * temporary name beside its target and renamed into place, temporaries removed on any failure.
 */

/** One file a command writes: the flag that named it (or what it is, for messages), its path and its bytes. */
export interface OutputFile {
  flag: string;
  path: string;
  /** Pieces one at a time (each written before the next is asked for) for a file too large to hold. */
  data: Uint8Array | string | AsyncIterable<Uint8Array>;
}

export interface OutputPolicy {
  /** Replace an existing file (else refuse). A folder is never replaced by a file. */
  force?: boolean;
  /** Files and folders the command reads: an output is never one of them nor inside such a folder, --force or not. */
  inputs?: readonly string[];
}

/**
 * Checks that `file.path` can be written, without writing anything: not a folder, not an existing
 * file unless `force`, and its nearest existing ancestor is a writable folder (missing parent folders
 * are created when writing, like every other `--out` of the CLI).
 */
export async function checkOutputFile(file: Pick<OutputFile, 'flag' | 'path'>, policy: OutputPolicy = {}): Promise<void> {
  const where = `${file.flag} ${file.path}`;
  const fail = (problem: string): never => {
    throw new InputError(`${where}: ${problem}`, file.path);
  };
  if (/[\\/]$/.test(file.path)) fail('ends with a path separator, so it names a folder (give a file path)');
  const target = resolve(file.path);
  try {
    const found = await statOrUndefined(target);
    if (found?.isDirectory()) fail('is a folder (give a file path)');
    // A device, FIFO or socket is never ours to replace, --force or not (as root, --out /dev/null --force
    // would otherwise turn /dev/null into a WAV).
    if (found && !found.isFile()) fail('is not a regular file (a device, FIFO or socket); give a file path');
    const input = (policy.inputs ?? []).find((i) => target === resolve(i) || target.startsWith(resolve(i) + sep));
    if (input !== undefined) fail(`${target === resolve(input) ? 'is' : 'is inside'} ${input}, an input of this command; write it elsewhere`);
    if (found && !policy.force) fail('already exists (use --force to replace it)');
    const link = found ? undefined : await danglingLink(target);
    if (link !== undefined && !policy.force) fail(`is a symbolic link to ${link}, which does not exist (use --force to replace the link)`);
    const blocked = await parentProblem(target);
    if (blocked) fail(blocked);
  } catch (error) {
    if (error instanceof InputError) throw error;
    fail(fsReason(error));
  }
}

/**
 * Checks that the folder `dir` can be written, without writing anything (what writeOutputFolder refuses,
 * so a command can refuse before long work): not a file, not existing unless `force`, and its nearest
 * existing ancestor is a writable folder. Returns what is at `dir` now.
 */
export async function checkOutputFolder(flag: string, dir: string, policy: OutputPolicy = {}): Promise<Stats | undefined> {
  const fail = (problem: string): never => {
    throw new InputError(`${flag} ${dir}: ${problem}`, dir);
  };
  const target = resolve(dir);
  try {
    const found = await statOrUndefined(target);
    if (found && !found.isDirectory()) fail(`is ${kindOf(found)}, not a folder`);
    if (found && !policy.force) fail('already exists (use --force to write into it)');
    const link = found ? undefined : await danglingLink(target);
    if (link !== undefined) fail(`is a symbolic link to ${link}, which does not exist; give a folder path`);
    const blocked = await parentProblem(target);
    if (blocked) fail(blocked);
    return found;
  } catch (error) {
    if (error instanceof InputError) throw error;
    return fail(fsReason(error));
  }
}

/**
 * Writes `files` (plain names) into the folder `dir`: a new folder is created with its missing parents;
 * an existing one is refused unless `force`, then each file is replaced atomically and other files
 * in it are left alone. A file at `dir` is refused.
 */
export async function writeOutputFolder(flag: string, dir: string, files: Map<string, Uint8Array | string>, policy: OutputPolicy = {}): Promise<void> {
  const target = resolve(dir);
  const found = await checkOutputFolder(flag, dir, policy);
  try {
    await writeOutputFiles([...files].map(([name, data]) => ({ flag, path: join(target, name), data })), { force: true });
  } catch (error) {
    if (!found) await rmdir(target).catch(() => undefined); // the folder this call created, now empty again
    throw error;
  }
}

/**
 * Checks every output of one command before any work: no two name the same file, and each passes
 * checkOutputFile.
 */
export async function checkOutputFiles(files: readonly Pick<OutputFile, 'flag' | 'path'>[], policy: OutputPolicy = {}): Promise<void> {
  const seen = new Map<string, string>();
  for (const file of files) {
    const other = seen.get(resolve(file.path));
    if (other !== undefined) throw new InputError(`${file.flag} ${file.path}: the same file as ${other}; give each output its own path`, file.path);
    seen.set(resolve(file.path), file.flag);
  }
  for (const file of files) await checkOutputFile(file, policy);
}

/**
 * Writes every file or none: all targets are checked first (checkOutputFiles), each file goes to a temporary name beside
 * its target, and only when all are written are they renamed into place. Any failure removes the
 * temporaries and names the path and the problem.
 */
export async function writeOutputFiles(files: OutputFile[], policy: OutputPolicy = {}): Promise<void> {
  await checkOutputFiles(files, policy);
  const temps: string[] = [];
  try {
    for (const file of files) {
      const target = resolve(file.path);
      try {
        await mkdir(dirname(target), { recursive: true });
        // Unique per call (two saves of one file may overlap in the studio); 'wx' creates a new file or
        // fails, never writing through a link or FIFO that might be at the name.
        const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`);
        temps.push(temp);
        trackTemporary(temp);
        await writeFile(temp, file.data, { flag: 'wx' });
      } catch (error) {
        throw new InputError(`${file.flag} ${file.path}: cannot write (${fsReason(error)})`, file.path);
      }
    }
    for (const [i, file] of files.entries()) {
      try {
        await rename(temps[i], resolve(file.path));
      } catch (error) {
        throw new InputError(`${file.flag} ${file.path}: cannot write (${fsReason(error)})`, file.path);
      }
    }
  } finally {
    await Promise.all(temps.map((t) => rm(t, { force: true }).catch(() => undefined)));
    for (const t of temps) untrackTemporary(t);
  }
}


import { once } from 'node:events';
import type { Stats } from 'node:fs';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InputError } from '../common/errors.js';
import { joinedPiecesAsync } from '../common/report/report-json-rows.js';
import { joinedPieces } from '../common/report/json-number.js';
import { fsReason } from '../common/fs-reason.js';
import { trackTemporary, untrackTemporary } from '../host/fixture/pending-temporaries.js';
import { FIXTURE_FILE_NAMES, type FixtureTargetWords } from '../host/fixture/write-fixture-folder.js';
import { parentProblem, statOrUndefined } from '../host/fs/writable-target.js';

/** How a fixture refusal names the CLI's target and its replace flag. */
export const OUT_DIR: FixtureTargetWords = { target: '--out DIR', allowReplace: 'pass --force' };

/** One file a command writes: the flag that named it (for messages), its path and its bytes. */
export interface OutputFile {
  flag: string;
  path: string;
  data: Uint8Array | string;
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
    if (found && !found.isDirectory()) fail('is a file, not a folder');
    if (found && !policy.force) fail('already exists (use --force to write into it)');
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
        const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
        temps.push(temp);
        trackTemporary(temp);
        await writeFile(temp, file.data);
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

/** `wrote DIR/ (a.wav, b.wav, …)`: the files of a fixture folder, in the order docs/forensics.md lists them. */
export function wroteFolderLine(dir: string, names: Iterable<string>): string {
  const rank = (n: string) => (FIXTURE_FILE_NAMES.includes(n) ? FIXTURE_FILE_NAMES.indexOf(n) : FIXTURE_FILE_NAMES.length);
  const sorted = [...names].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  return `wrote ${dir.replace(/[\\/]+$/, '')}/ (${sorted.join(', ')})\n`;
}

/** Writes text given in pieces (reportJsonChunks) to stdout about 1 MiB at a time, waiting while the pipe is full. */
/** Text made as it is written (reportJsonWithRows), then `end`, to stdout, waiting for it to drain. */
export async function writeStdoutStream(pieces: AsyncIterable<string>, end = ''): Promise<void> {
  for await (const text of joinedPiecesAsync(pieces)) {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  }
  process.stdout.write(end);
}

export async function writeStdoutPieces(pieces: readonly string[]): Promise<void> {
  for (const text of joinedPieces(pieces)) {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  }
}

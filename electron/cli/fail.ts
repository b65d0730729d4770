import type { Command } from '@commander-js/extra-typings';
import { CommanderError } from 'commander';
import { ParityError } from '../common/errors.js';
import { printErr } from './print.js';

let verbose = false;

/** `--verbose`: an internal error's stack trace follows its one line. */
export function setVerbose(on: boolean): void {
  verbose = on;
}

/**
 * Turns any error into one line on stderr and the exit status the CLI promises (README, "Exit
 * status"): 2 for bad input, usage or a bundle at fault, 1 only for a failed gate (set by the gate
 * command itself), 3 for a bug in parity. A stack trace is printed only with --verbose.
 */
export function exitOnError(command: string, error: unknown): never {
  // The reader of stdout went away (`| head`): the rest of the output is dropped quietly and the command
  // ends with the status it had set (a failed gate's 1), else 0 — whatever the size of the output.
  if (isBrokenPipe(error)) process.exit(process.exitCode ?? 0);
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof ParityError) {
    printErr(`parity ${command}: ${oneLine(error.message)}\n`);
    if (verbose && error.exitCode === 3 && error.stack) printErr(`${error.stack}\n`);
    process.exit(error.exitCode);
  }
  const message = error instanceof Error ? error.message : String(error);
  printErr(`parity ${command}: internal error (a bug in parity: please report it with the command that failed; --verbose prints the stack trace): ${oneLine(message)}\n`);
  if (verbose && error instanceof Error && error.stack) printErr(`${error.stack}\n`);
  process.exit(3);
}

/** EPIPE on a write to a closed pipe, or a write after Node destroyed the stream for it. */
export function isBrokenPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Commander's own errors ("error: unknown option ...") in our format, `parity <command>: <message>`,
 * for every (sub)command; an invalid option argument reads `--flag value: what was expected`.
 */
export function formatCommanderErrors(command: Command, path: string[] = []): void {
  const name = ['parity', ...path].join(' ');
  command.configureOutput({
    outputError: (text, write) => {
      const message = oneLine(text.trim().replace(/^error: /, ''));
      const invalid = /^option '(\S+)(?: <[^>]*>)?' argument '(.*)' is invalid\. (.*)$/.exec(message);
      write(`${name}: ${invalid ? `${invalid[1]} ${invalid[2]}: ${invalid[3]}` : message}\n`);
    },
  });
  for (const sub of command.commands) formatCommanderErrors(sub as Command, [...path, sub.name()]);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/** Wraps a command action so that every failure goes through `exitOnError`. */
export function action<Args extends unknown[]>(
  command: string,
  run: (...args: Args) => Promise<void> | void,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await run(...args);
    } catch (error) {
      exitOnError(command, error);
    }
  };
}

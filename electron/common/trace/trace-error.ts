import { ParityError } from '../errors.js';

/** A problem in a trace file, named `file:line: problem` like a compiler error. */
export class TraceError extends ParityError {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, problem: string) {
    super('trace', `${file}:${line}: ${problem}`, `${file}:${line}`);
    this.name = 'TraceError';
    this.file = file;
    this.line = line;
  }
}

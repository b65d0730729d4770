import type { Command, OptionValues } from '@commander-js/extra-typings';
import { InvalidArgumentError } from 'commander';
import { Sampling } from '../../common/api/primitives.js';
import { InputError } from '../../common/errors.js';
import { DEFAULT_MAX_LAG_MS } from '../../common/analysis/lag-range.js';
import { DEFAULT_NEAR_TIE_GAP } from '../../common/forensics/near-tie.js';
import { DEFAULT_TOLERANCES, type Tolerances } from '../../common/forensics/tolerances.js';

/** Options shared by `compare` and `compare-trace`: tolerances and the exit rule. */
export function nonNegative(what: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || text.trim() === '') throw new InvalidArgumentError(`expected ${what} >= 0, found "${text}"`);
    return value;
  };
}

export function positive(what: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`expected ${what} > 0, found "${text}"`);
    return value;
  };
}

/** A number in (lo, hi] (the ranges of common/api Sampling), named in the message. */
export function inRange(what: string, lo: number, hi: number) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value <= lo || value > hi) {
      throw new InvalidArgumentError(`expected ${what} in (${lo}, ${hi}], found "${text}"`);
    }
    return value;
  };
}

export function parseFailOn(text: string): 'diverged' | 'within-tolerance' {
  if (text === 'diverged' || text === 'within-tolerance') return text;
  throw new InvalidArgumentError(`expected "diverged" (exit 1 when diverged or the audio is degenerate) or "within-tolerance" (exit 1 unless identical), found "${text}"`);
}

export function tolerancesFrom(o: { logitTol?: number; logitRelTol?: number; audioTol?: number; nearTieGap?: number }): Partial<Omit<Tolerances, 'codes'>> {
  const t: Partial<Omit<Tolerances, 'codes'>> = {};
  if (o.logitTol !== undefined) t.logitAbs = o.logitTol;
  if (o.logitRelTol !== undefined) t.logitRel = o.logitRelTol;
  if (o.audioTol !== undefined) t.audioAbs = o.audioTol;
  if (o.nearTieGap !== undefined) t.nearTieGap = o.nearTieGap;
  return t;
}

/**
 * Exit status for --fail-on: 1 when the verdict is at least as bad as the threshold. Degenerate audio
 * (silence, a constant, NaN/Inf) is no match, so it fails both.
 */
export function failOnStatus(verdict: string, failOn: 'diverged' | 'within-tolerance' | undefined): number {
  if (failOn === 'diverged') return verdict === 'diverged' || verdict === 'degenerate-audio' ? 1 : 0;
  if (failOn === 'within-tolerance') return verdict === 'identical' ? 0 : 1;
  return 0;
}

export function parseSeed(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value > 2 ** 32 - 1) {
    throw new InvalidArgumentError(`expected an integer seed in [0, 4294967295], found "${text}"`);
  }
  return value;
}

export function parseInteger(what: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError(`expected ${what} (an integer >= 0), found "${text}"`);
    return Number(text);
  };
}

export function parseMode(text: string): 'greedy' | 'sample' {
  if (text === 'greedy' || text === 'sample') return text;
  throw new InvalidArgumentError(`expected "greedy" or "sample", found "${text}"`);
}

/** Adds --sampling, --temperature, --top-k, --top-p, --repetition-penalty (for compare and synth). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors commander's own Args constraint
export function addSamplingOptions<Args extends any[], Opts extends OptionValues, G extends OptionValues>(command: Command<Args, Opts, G>) {
  return command
    .option('--sampling <mode>', 'greedy (default) or sample', parseMode)
    .option('--temperature <t>', 'sampling temperature in (0, 10] (default 1)', inRange('a temperature', 0, 10))
    .option('--top-k <k>', 'keep the k most likely codes; 0 = all (default 0)', parseInteger('top-k'))
    .option('--top-p <p>', 'nucleus probability in (0, 1] (default 1)', inRange('top-p', 0, 1))
    .option('--repetition-penalty <x>', 'CTRL repetition penalty in (0, 10], 1 = none (default 1)', inRange('a penalty', 0, 10));
}

/** The tolerance, lag-range and exit-rule flags of compare and compare-trace; defaults from the code that applies them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors commander's own Args constraint
export function addVerdictOptions<Args extends any[], Opts extends OptionValues, G extends OptionValues>(command: Command<Args, Opts, G>) {
  const d = DEFAULT_TOLERANCES;
  return command
    .option('--logit-tol <x>', `absolute tolerance on logit statistics (default ${d.logitAbs})`, nonNegative('a tolerance'))
    .option('--logit-rel-tol <x>', `relative tolerance on logit statistics (default ${d.logitRel})`, nonNegative('a tolerance'))
    .option('--audio-tol <x>', `absolute tolerance per audio sample (default ${d.audioAbs})`, nonNegative('a tolerance'))
    .option('--near-tie-gap <x>', `where the codes first differ, call the flip a near-tie when the two codes' logit difference moved by at most this (default ${DEFAULT_NEAR_TIE_GAP}; 0.7 for bf16, vLLM 55238)`, nonNegative('a logit gap'))
    .option('--max-lag-ms <ms>', `cross-correlation lag search range, ± ms (default ${DEFAULT_MAX_LAG_MS})`, positive('milliseconds'))
    .option('--fail-on <verdict>', 'exit 1 when the verdict is "diverged" or "degenerate-audio" (or anything but identical: "within-tolerance")', parseFailOn);
}

export interface SamplingFlags {
  sampling?: 'greedy' | 'sample';
  temperature?: number;
  topK?: number;
  topP?: number;
  repetitionPenalty?: number;
}

/** The request's sampling, validated by the same schema as the StudioApi (errors name the flag). */
export function samplingFrom(o: SamplingFlags): Sampling {
  const parsed = Sampling.safeParse({ mode: o.sampling, temperature: o.temperature, topK: o.topK, topP: o.topP, repetitionPenalty: o.repetitionPenalty });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0]);
    const flags: Record<string, [flag: string, valid: string]> = {
      mode: ['--sampling', '"greedy" or "sample"'],
      temperature: ['--temperature', 'a number in (0, 10]'],
      topK: ['--top-k', 'an integer >= 0'],
      topP: ['--top-p', 'a number in (0, 1]'],
      repetitionPenalty: ['--repetition-penalty', 'a number in (0, 10]'],
    };
    const [flag, valid] = flags[key] ?? [key, issue.message];
    throw new InputError(`${flag} ${String((o as Record<string, unknown>)[key === 'mode' ? 'sampling' : key])}: expected ${valid}`);
  }
  return parsed.data;
}

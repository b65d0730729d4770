import type { Command } from '@commander-js/extra-typings';
import { registerBench } from './commands/bench.js';
import { registerCompare } from './commands/compare.js';
import { registerCompareTrace } from './commands/compare-trace.js';
import { registerGate } from './commands/gate.js';
import { registerGpuCompare } from './commands/gpu-compare.js';
import { registerCompareWav } from './commands/compare-wav.js';
import { registerSynth } from './commands/synth.js';
import { registerBundle } from './commands/bundle.js';
import { registerServe } from './commands/serve.js';
import { registerSweep } from './commands/sweep.js';

/** Each subcommand lives in its own file under commands/ and registers itself on the program. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [registerCompareWav, registerCompare, registerCompareTrace, registerGate, registerSynth, registerBundle, registerBench, registerServe, registerSweep, registerGpuCompare];

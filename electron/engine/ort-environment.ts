import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ParityError } from '../common/errors.js';

type OrtModule = typeof import('onnxruntime-node');

/**
 * Loads onnxruntime-node for ort-session.ts, only when a session or tensor is first needed: commands
 * that never run a model (compare-wav, compare-trace, sweep merge/gate, bundle check without --smoke)
 * never load its native libraries, and every command checks its arguments before they load.
 *
 * ORT's one-time environment set-up on Linux reads /proc/self/cmdline and walks it with a recursive
 * matcher whose depth grows with its length (measured with onnxruntime-node 1.30: ~300-450 bytes of
 * stack per byte of the command line; a 32 KB `--text` overflowed the main thread's 8 MB stack and the
 * process died with SIGSEGV). The set-up runs once per process, on the thread that opens the first
 * session; when the command line is long, that thread is a short-lived worker given a stack sized for
 * it (STACK_BYTES_PER_CMDLINE_BYTE each), and every later session on any thread reuses its environment.
 */
let ort: OrtModule | undefined;
let environment: Promise<void> | undefined;

const require = createRequire(import.meta.url);

/** Measured need is under 450 (1 MB of arguments ran with 512 MB of stack and failed with 256 MB). */
export const STACK_BYTES_PER_CMDLINE_BYTE = 640;
/** Below this the calling thread's own stack (4 MB in a worker, 8 MB on the main thread) is enough. */
export const SHORT_CMDLINE_BYTES = 4096;

/** The module, loaded on first use (no native set-up happens until a session is created). */
export function ortModule(): OrtModule {
  if (!ort) {
    ort = require('onnxruntime-node') as OrtModule;
    // ORT would print its own error-level log line for a CUDA provider it cannot load; the engine reports
    // that failure in SynthesisResult.fallback instead, and every other ORT error arrives as an exception.
    ort.env.logLevel = 'fatal';
  }
  return ort;
}

/** Resolves once ORT's process-wide environment exists; call before the first session is created. */
export function ortEnvironment(): Promise<OrtModule> {
  environment ??= initialise();
  return environment.then(ortModule);
}

async function initialise(): Promise<void> {
  const length = commandLineBytes();
  if (length <= SHORT_CMDLINE_BYTES) return;
  const stackSizeMb = Math.ceil(16 + (length * STACK_BYTES_PER_CMDLINE_BYTE) / (1024 * 1024));
  // The worker creates a session from bytes that are no model: the environment is set up before the
  // bytes are read, and the refusal that follows is expected.
  const code = `const ort = require(${JSON.stringify(require.resolve('onnxruntime-node'))});
    ort.env.logLevel = 'fatal';
    ort.InferenceSession.create(new Uint8Array([0])).then(() => undefined, () => undefined);`;
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, resourceLimits: { stackSizeMb } });
    worker.once('error', (error) => reject(setUpFailed(length, stackSizeMb, error.message)));
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(setUpFailed(length, stackSizeMb, `exit ${code}`))));
  });
}

function setUpFailed(length: number, stackSizeMb: number, why: string): ParityError {
  return new ParityError('engine', `ONNX Runtime set-up with a ${length}-byte command line in a thread of ${stackSizeMb} MB stack failed (${why}); shorten the command line (e.g. fewer folders per gate run)`);
}

/** Bytes of /proc/self/cmdline (Linux); elsewhere the arguments' UTF-8 length, an estimate of the same. */
function commandLineBytes(): number {
  try {
    return readFileSync('/proc/self/cmdline').length;
  } catch {
    return [process.execPath, ...process.execArgv, ...process.argv.slice(1)].reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
  }
}

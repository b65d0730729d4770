import { speechBody } from '../../common/endpoint/speech-body.js';
import { InputError } from '../../common/errors.js';
import type { Sampling } from '../../common/api/primitives.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import { endpointSideLine } from '../../common/report/format/endpoint-lines.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { downmixToMono } from '../../common/wav/downmix.js';
import { requestSpeech } from '../../host/endpoint/speech-client.js';
import { checkOutputFile, writeOutputFiles } from '../../host/fs/output-files.js';
import { exitOnInterrupt } from '../interrupt.js';
import { printOut } from '../print.js';

export interface EndpointSynthFlags {
  text: string;
  out: string;
  force?: boolean;
  json?: boolean;
  trace?: string;
  bundle?: string;
  seed: number;
  sampling: Sampling;
  allowHost: string[];
}

/**
 * `parity synth --profile endpoint=…`: one request to a speech server, its audio written as the 32-bit
 * float WAV every `synth` writes (mono, the server's rate), once the whole response is in.
 */
export async function synthEndpoint(spec: EndpointSpec, o: EndpointSynthFlags): Promise<void> {
  if (o.bundle !== undefined) throw new InputError('--bundle runs our engine; it does not apply to an endpoint (the server runs its own model)');
  if (o.trace !== undefined) throw new InputError("--trace is our engine's step trace; an endpoint's trace is written by the server's recorder (traces=DIR, docs/deployments.md)");
  await checkOutputFile({ flag: '--out', path: o.out }, o);
  exitOnInterrupt('synth', () => 'the request was stopped; nothing was written');
  const { decoded, exchange } = await requestSpeech(spec, speechBody(spec, { text: o.text, seed: o.seed, sampling: o.sampling }), { allowHosts: o.allowHost, env: process.env, label: 'endpoint' });
  const mono = downmixToMono(decoded);
  await writeOutputFiles([{ flag: '--out', path: o.out, data: encodeWav([mono.signal], decoded.sampleRate, 'float32') }], o);
  if (o.json) printOut(stringifyReport({ out: o.out, endpoint: exchange }) + '\n');
  else printOut(`wrote ${o.out}: ${exchange.response.durationS.toFixed(2)} s at ${decoded.sampleRate} Hz (${mono.rule})\n${endpointSideLine('endpoint', exchange)}\n`);
}

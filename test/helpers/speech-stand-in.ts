import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small OpenAI-style speech server for tests (`POST …/v1/audio/speech`, `GET /v1/models`, `GET /version`).
 * The path before `/v1/audio/speech` picks a behaviour: `/` and `/quiet` (the same rendering at 0.9 gain)
 * answer with audio as asked (wav or pcm, one response, SSE or raw chunks); the others are the faults the
 * client must report: `/slow`, `/http400`, `/http500`, `/json`, `/html`, `/badwav`, `/drop`, `/sse-error`,
 * `/sse-cut`, `/empty`, `/rate16k`. The audio is a sine whose pitch comes from the text and the seed, so
 * two requests with the same text and seed give the same samples.
 */
export interface StandIn {
  url: string;
  port: number;
  /** Each speech request as received. */
  requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  /** Requests whose client went away before the response ended. */
  closedEarly: string[];
  close(): Promise<void>;
}

export const STAND_IN_RATE = 24000;
export const STAND_IN_MODEL = 'stand-in-tts';

/** The stand-in's rendering of a request: int16 samples. */
export function standInSamples(text: string, seed: number, gain = 1): Int16Array {
  let h = seed >>> 0;
  for (const c of text) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  const f = 150 + (h % 200);
  const n = Math.round(STAND_IN_RATE * (0.2 + 0.01 * text.length));
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(gain * 16000 * Math.sin((2 * Math.PI * f * i) / STAND_IN_RATE));
  return out;
}

export function wavHeader(dataBytes: number, rate: number, streamed = false): Buffer {
  const b = Buffer.alloc(44);
  b.write('RIFF', 0);
  b.writeUInt32LE(streamed ? 0xffffffff : 36 + dataBytes, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(streamed ? 0xffffffff : dataBytes, 40);
  return b;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

async function speech(prefix: string, body: Record<string, unknown>, res: ServerResponse, firstChunkDelayMs: number): Promise<void> {
  const text = String(body.input ?? '');
  const seed = Number(body.seed ?? 0);
  const format = body.response_format === 'pcm' ? 'pcm' : 'wav';
  const rate = prefix === '/rate16k' ? 16000 : STAND_IN_RATE;
  const pcm = Buffer.from(standInSamples(text, seed, prefix === '/quiet' ? 0.9 : 1).buffer);
  const audio = prefix === '/empty' ? Buffer.alloc(0) : pcm;
  const streamFormat = body.stream === true ? (body.stream_format ?? 'sse') : undefined;
  const error = (status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: status >= 500 ? 'InternalServerError' : 'BadRequestError', param: null, code: status } }));
  };
  switch (prefix) {
    case '/slow':
      await sleep(60_000);
      return error(500, 'too late');
    case '/http400':
      return error(400, `voice '${String(body.voice)}' is not supported; supported voices: vivian, ryan`);
    case '/http500':
      return error(500, 'EngineCore encountered an issue. See stack trace (above) for the root cause.');
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ text: 'this is a transcription, not audio' }));
    case '/html':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Welcome to nginx!</body></html>');
    case '/badwav':
      res.writeHead(200, { 'content-type': 'audio/wav' });
      return void res.end(Buffer.from('RIFX....WAVEnot really a wav file at all'));
  }
  const chunks: Buffer[] = [];
  const whole = format === 'wav' ? Buffer.concat([wavHeader(audio.length, rate, streamFormat !== undefined), audio]) : audio;
  if (streamFormat === undefined) {
    res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm', 'x-vllm-omni-output-tokens': '7', ...(body ? { 'x-request-id': 'echo' } : {}) });
    return void res.end(whole);
  }
  // Streamed: a header chunk alone first (as vLLM-Omni's raw WAV stream), then the samples in pieces.
  if (format === 'wav') chunks.push(whole.subarray(0, 44));
  const start = format === 'wav' ? 44 : 0;
  const piece = 4800;
  for (let at = start; at < whole.length; at += piece) chunks.push(whole.subarray(at, Math.min(whole.length, at + piece)));
  if (streamFormat === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, c] of chunks.entries()) {
      if (i === 1) await sleep(firstChunkDelayMs);
      res.write(`event: speech.audio.delta\ndata: ${JSON.stringify({ type: 'speech.audio.delta', audio: c.toString('base64'), response_format: format })}\n\n`);
      if (prefix === '/sse-error' && i === 1) {
        return void res.end(`event: speech.audio.error\ndata: ${JSON.stringify({ type: 'speech.audio.error', error: { message: 'Code2Wav stage failed: out of memory', partial_audio: true, action: 'discard' } })}\n\n`);
      }
      if (prefix === '/drop' && i === 1) return void res.socket?.destroy();
    }
    if (prefix === '/sse-cut') return void res.end();
    return void res.end(`event: speech.audio.done\ndata: ${JSON.stringify({ type: 'speech.audio.done', usage: { input_tokens: text.length, output_tokens: 7, total_tokens: text.length + 7 } })}\n\n`);
  }
  res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm' });
  for (const [i, c] of chunks.entries()) {
    if (i === 1) await sleep(firstChunkDelayMs);
    res.write(c);
    if (prefix === '/drop' && i === 1) {
      await sleep(20);
      return void res.socket?.destroy();
    }
  }
  res.end();
}

/**
 * As the vLLM recorder does in a server: one `tts-parity-trace/1` file per request, named by the server's own
 * request id (`speech-N`), written after the response. `/quiet` picks other codes from step 3 on.
 */
function writeStandInTrace(dir: string, prefix: string, n: number, text: string, seed: number, extra = 0): void {
  const id = `speech-${n}`;
  const steps = Array.from({ length: 6 }, (_, i) => ({ step: i + 1, codes: [(text.length * 7 + seed + i) % 2048, i % 2048].map((c) => (prefix === '/quiet' && i >= 2 ? (c + 1) % 2048 : c)) }));
  const header = { schema: 'tts-parity-trace/1', engine: 'stand-in recorder', q: 2, frameRate: 12.5, sampleRate: STAND_IN_RATE, requestId: id, text };
  for (let k = 0; k <= extra; k++) writeFileSync(join(dir, `${id}${k ? `-other${k}` : ''}.jsonl`), [header, ...steps].map((l) => JSON.stringify(l)).join('\n') + '\n');
}

export async function startStandIn(options: { firstChunkDelayMs?: number; traceDirs?: Record<string, string>; extraTraces?: number } = {}): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const closedEarly: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path.endsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ object: 'list', data: [{ id: STAND_IN_MODEL, object: 'model' }] }));
      }
      if (req.method === 'GET' && path.endsWith('/version')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ version: 'stand-in 1.0' }));
      }
      const m = /^(.*)\/v1\/audio\/speech$/.exec(path);
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ detail: 'Not Found' }));
      }
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const prefix = m[1] === '' ? '/' : m[1];
      requests.push({ path: prefix, headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) closedEarly.push(prefix);
      });
      await speech(prefix, body, res, options.firstChunkDelayMs ?? 30);
      const traceDir = options.traceDirs?.[prefix];
      if (traceDir) writeStandInTrace(traceDir, prefix, requests.length, String(body.input ?? ''), Number(body.seed ?? 0), options.extraTraces);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    closedEarly,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A loopback port nothing listens on (a server opened and closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { DownloadId } from '../common/api/history.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { MAX_MESSAGE_BYTES } from '../common/api/message-limit.js';
import { InputError } from '../common/errors.js';
import { readStatic } from '../host/read-static.js';
import { withExportsFolderOnly } from './export-targets.js';
import { withUploadedFilesOnly } from './file-inputs.js';
import { FixtureDownloads, withFixtureDownloads } from './fixture-downloads.js';
import { folderName, streamFixtureZip, zipDisposition } from './fixture-zip.js';
import { openExport } from './open-export.js';
import { checkRequest, cookieName, isLoopbackHost, newToken, type GuardConfig } from './request-guard.js';
import { quoteTarget } from './request-target.js';
import { Uploads, UploadRefused, type UploadLimits } from './uploads.js';
import { serveSocket } from './ws-api.js';

export interface ServeOptions {
  studio: StudioHandlers;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Binding anything but loopback needs this, on purpose. */
  allowRemote?: boolean;
  token?: string;
  /** A download that makes no progress this long is dropped (DOWNLOAD_IDLE_MS unless a test passes less). */
  downloadIdleMs?: number;
  /** Caps of POST /upload per file, per import and per connection (DEFAULT_UPLOAD_LIMITS, uploads.ts, unless a test passes less). */
  uploadLimits?: Partial<UploadLimits>;
  /** Where uploads are written, in a private folder removed on close (the system's temporary folder unless given). */
  uploadsIn?: string;
  /** Where the server reports a connection it dropped (one line each); stderr unless a caller collects them. */
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  token: string;
  close(): Promise<void>;
}

// The page talks only to this server; no plugins, no framing, no referrer (the URL holds the token).
// 'wasm-unsafe-eval' lets the page compile WebAssembly (the spectrogram's PFFFT) and nothing else: no JS eval.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
/**
 * A download whose socket accepts nothing for this long is destroyed and its files closed: Node's HTTP
 * server has no such limit, so a client pausing forever would hold the handles (and a replaced folder's
 * disk space) forever. A minute is far longer than any stall of a client still reading.
 */
export const DOWNLOAD_IDLE_MS = 60_000;

/**
 * Browser mode: the built renderer over HTTP, StudioApi over a WebSocket at /ws, and the fixture folders
 * exported through it as zips at /download/<id>, all behind the token.
 */
export async function startStudioServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new InputError(`--host ${host} is not a loopback address; pass --allow-remote to serve the studio to other machines`);
  }
  const token = options.token ?? newToken();
  const guard: GuardConfig = { token, port: 0, bindHost: host };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const downloads = new FixtureDownloads();
  const uploads = new Uploads(options.uploadLimits, options.uploadsIn);
  // The page names export folders (only inside the server's exports folder: export-targets.ts) and sends
  // imported files as bytes or uploads (never server paths: file-inputs.ts), each connection only its own.
  const studioFor = (session: string | undefined) => withFixtureDownloads(withExportsFolderOnly(withUploadedFilesOnly(options.studio, uploads, session)), downloads);

  const idleMs = options.downloadIdleMs ?? DOWNLOAD_IDLE_MS;
  const log = options.log ?? ((line: string) => process.stderr.write(`serve: ${line}\n`));
  const server = createServer((req, res) => {
    handleHttp(req, res, guard, options.staticDir, downloads, uploads, idleMs, log).catch((error: unknown) => failedRequest(req, res, error, log));
  });
  server.on('upgrade', (req, socket, head) => {
    try {
      const verdict = checkRequest(req, guard);
      if (!verdict.ok || verdict.pathname !== '/ws') {
        const status = verdict.ok ? 404 : verdict.status;
        if (!verdict.ok && status === 400) log(`refused an upgrade ${quoteTarget(req.url)}: ${verdict.reason}`);
        socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${verdict.ok ? 'not found' : verdict.reason}\n`);
        return;
      }
      // The page names its connection (`session`) so its uploads are counted against it and go when it closes.
      // It is registered only once the handshake has succeeded (a handshake ws refuses never calls back),
      // and removed when that connection closes: no session outlives its connection.
      const session = verdict.query.get('session') ?? undefined;
      const taken = `refused: session "${session?.slice(0, 80)}" is malformed or already open (16 to 64 letters, digits, - or _; one per connection)`;
      if (session !== undefined && !uploads.mayOpen(session)) {
        socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${taken}\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        // Two handshakes naming one id may both pass the check above; the second to open is closed.
        if (session !== undefined && !uploads.openSession(session)) return void ws.close(1008, taken.slice(0, 120));
        if (session !== undefined) ws.on('close', () => void uploads.endSession(session));
        serveSocket(ws, studioFor(session), log);
      });
    } catch (error) {
      log(`dropped an upgrade ${quoteTarget(req.url)} after an error: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    }
  });
  // Requests Node's own parser refuses (a space in the target, a bad header line) never reach the
  // handlers above: the same 400 and one log line. A client that went away is not worth a line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    log(`refused a request Node could not parse (${error.code ?? error.message}): ${status}`);
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nrefused: the request could not be parsed\n`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new InputError(`port ${options.port} on ${host} is already in use; choose another with --port`) : error),
    );
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  guard.port = port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    host,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => void uploads.close().then(resolve));
      }),
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 431: 'Request Header Fields Too Large' };

/** A handler that threw: 500 (or the connection cut, when the answer had begun) and one log line; never the process. */
function failedRequest(req: IncomingMessage, res: ServerResponse, error: unknown, log: (line: string) => void): void {
  log(`${req.method ?? '?'} ${quoteTarget(req.url)} failed: ${error instanceof Error ? error.message : String(error)}`);
  if (res.headersSent) return void res.destroy();
  refuseBody(req, res, 500, 'internal error (logged by parity serve)\n');
}

async function handleHttp(req: IncomingMessage, res: ServerResponse, guard: GuardConfig, staticDir: string, downloads: FixtureDownloads, uploads: Uploads, idleMs: number, log: (line: string) => void): Promise<void> {
  const verdict = checkRequest(req, guard);
  if (!verdict.ok) {
    if (verdict.status === 400) log(`refused ${req.method ?? '?'} ${quoteTarget(req.url)}: ${verdict.reason}`);
    return refuseBody(req, res, verdict.status, `refused: ${verdict.reason}\n`);
  }
  const { pathname, query } = verdict;
  if (pathname === UPLOAD_PATH) return receiveUpload(req, res, uploads, query);
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuseBody(req, res, 405, `only GET (POST only to ${UPLOAD_PATH})\n`);
  if (pathname.startsWith(DOWNLOAD_PREFIX)) return serveDownload(req, res, downloads, pathname.slice(DOWNLOAD_PREFIX.length), idleMs);
  const file = await readStatic(staticDir, pathname);
  if (!file.ok) {
    if (file.status === 403) log(`${req.method} ${quoteTarget(req.url)}: ${file.line}`);
    return reply(res, file.status, pathname === '/' && file.status === 404 ? `the renderer is not built (${staticDir}/index.html missing); run \`npm run build\`\n` : `${file.line}\n`);
  }
  const headers: Record<string, string> = { ...SECURITY_HEADERS, 'Content-Type': file.type };
  // The page was opened with ?token=: remember it for its assets and its WebSocket, this port only.
  if (verdict.via === 'query') headers['Set-Cookie'] = `${cookieName(guard.port, guard.token)}=${guard.token}; Path=/; HttpOnly; SameSite=Strict`;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

const DOWNLOAD_PREFIX = '/download/';
const UPLOAD_PATH = '/upload';

/**
 * POST /upload?name=<file name>&session=<the page's connection>: the body is one file, streamed to disk
 * (uploads.ts); the answer is `{"upload": id, "name", "bytes"}` for an import to name. Over the per-file
 * cap or the connection's bytes: 413, past its count: 429, no open connection of that session: 400; one line each.
 */
async function receiveUpload(req: IncomingMessage, res: ServerResponse, uploads: Uploads, query: URLSearchParams): Promise<void> {
  if (req.method !== 'POST') return refuseBody(req, res, 405, `only POST to ${UPLOAD_PATH}\n`);
  try {
    const ref = await uploads.receive(req, query.get('name') ?? '', query.get('session') ?? '');
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ref));
  } catch (error) {
    if (!(error instanceof UploadRefused)) throw error;
    refuseBody(req, res, error.status, `refused: ${error.message}\n`);
  }
}

/** One exported fixture folder as `<folder>.zip`, named by the id its export returned. */
async function serveDownload(req: IncomingMessage, res: ServerResponse, downloads: FixtureDownloads, id: string, idleMs: number): Promise<void> {
  if (req.method !== 'GET') return reply(res, 405, 'only GET for a download\n');
  if (!DownloadId.safeParse(id).success) return reply(res, 400, `refused: "${id.slice(0, 80)}" is not a download id (letters, digits, - and _ only: the id an export returned, never a path)\n`);
  const entry = downloads.get(id);
  if (!entry) return reply(res, 404, `no export with download id ${id} on this server (ids last while \`parity serve\` runs): export the fixture again\n`);
  if (entry.replaced) return reply(res, 410, `${entry.dir} was replaced by a newer export of this folder: use the newer Download link\n`);
  // Every file is opened before the status goes out: the zip holds this export even if a forced
  // re-export swaps the folder while it streams.
  const opened = await openExport(entry);
  if (!opened.ok) return reply(res, 410, `the export is gone: ${opened.reason}; export the fixture again\n`);
  // The socket's inactivity timer restarts whenever a write completes or a byte arrives, so it fires only
  // when the client has taken nothing for idleMs. Destroying the response ends the zip's wait for 'drain'
  // (streamFixtureZip stops on 'close'), and the finally below closes the files.
  res.setTimeout(idleMs, () => res.destroy());
  try {
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/zip', 'Content-Disposition': zipDisposition(entry.dir) });
    await streamFixtureZip(res, folderName(entry.dir), opened.files);
  } finally {
    await opened.close();
  }
}

/**
 * A refusal of a request whose body was not read (an upload over the cap, a POST elsewhere): the answer
 * goes out at once and the rest of the body is read and dropped as it arrives, never buffered, so a
 * browser still sending it gets the answer rather than a reset connection.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  reply(res, status, text);
  req.resume();
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

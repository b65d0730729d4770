import { createClient } from '../../../electron/common/api/create-client.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import { httpUpload, withStreamedUploads } from './streamed-uploads.js';
import type { Transport } from './transport.js';

/**
 * Browser mode: StudioApi over a WebSocket to the server that served this page. The token comes from
 * the URL `parity serve` printed (then removed from the address bar; the server's cookie keeps the page
 * authorised on reload). WAV imports go as streamed uploads beside the socket (streamed-uploads.ts),
 * each naming this connection's `session`, so the server counts them against it and deletes the ones no
 * import used when it closes.
 */
export async function wsTransport(location: Location, history: History): Promise<Transport> {
  const token = new URLSearchParams(location.search).get('token');
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // getRandomValues, not randomUUID: a page served to another machine over plain http is no secure context.
  const session = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const query = new URLSearchParams({ ...(token ? { token } : {}), session });
  const url = `${scheme}//${location.host}/ws?${query.toString()}`;
  if (token) history.replaceState(null, '', location.pathname);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to the studio at ${scheme}//${location.host}/ws (is \`parity serve\` running, and was the page opened with its token?)`)), { once: true });
  });
  const studio = createClient(createSocketChannel(socket as unknown as SocketLike));
  return { studio: withStreamedUploads(studio, httpUpload(`${location.protocol}//${location.host}`, session)), kind: 'browser' };
}

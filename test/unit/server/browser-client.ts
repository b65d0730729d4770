import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { createClient } from '../../../electron/common/api/create-client.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { RunningServer } from '../../../electron/server/studio-server.js';

/** The page's side of browser mode in a test: a WebSocket opened with the server's token, and the StudioApi on it. */
export async function connectBrowserClient(server: RunningServer): Promise<{ ws: WebSocket; studio: StudioApi; session: string }> {
  // The connection's name, as the page makes one: uploads name it (POST /upload?session=).
  const session = randomBytes(16).toString('hex');
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${session}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, studio: createClient(createSocketChannel(ws as unknown as SocketLike)), session };
}

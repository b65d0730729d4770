import { ipcTransport } from './ipc-transport.js';
import type { Transport } from './transport.js';
import { wsTransport } from './ws-transport.js';

/** The desktop bridge when the preload provided one, else the WebSocket of browser mode. */
export async function pickTransport(): Promise<Transport> {
  return ipcTransport() ?? (await wsTransport(window.location, window.history));
}

import type { z } from 'zod';
import type { Disposer } from './event-emitter.js';
import type { StudioEvents } from './events.js';
import type { MethodName, StudioMethods } from './methods.js';

type Req<K extends MethodName> = StudioMethods[K]['request'];
type Res<K extends MethodName> = StudioMethods[K]['response'];

/** Methods whose argument may be left out (all fields optional) take it optionally. */
type ArgsOf<K extends MethodName> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends z.input<Req<K>> ? [request?: z.input<Req<K>>] : [request: z.input<Req<K>>];

export interface StudioSubscribable {
  on<E extends keyof StudioEvents>(name: E, listener: (...args: StudioEvents[E]) => void): Disposer;
}

/** What a caller (renderer, CLI) holds, whatever the transport. */
export type StudioApi = {
  [K in MethodName]: (...args: ArgsOf<K>) => Promise<z.output<Res<K>>>;
} & StudioSubscribable;

/** What the host implements: arguments already parsed by the transport, results checked by the caller. */
export type StudioHandlers = {
  [K in MethodName]: (request: z.output<Req<K>>) => Promise<z.output<Res<K>>>;
} & StudioSubscribable;

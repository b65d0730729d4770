import type { z } from 'zod';

/**
 * One StudioApi method: its wire name and the zod schemas of its one argument and its result.
 * Every transport (Electron IPC, WebSocket, direct) parses the argument with `request` on the host
 * side and the result with `response` on the caller's side, so a method is declared exactly once.
 */
export interface MethodDef<Name extends string, Req extends z.ZodType, Res extends z.ZodType> {
  readonly name: Name;
  readonly request: Req;
  readonly response: Res;
}

export function defineMethod<Name extends string, Req extends z.ZodType, Res extends z.ZodType>(
  name: Name,
  request: Req,
  response: Res,
): MethodDef<Name, Req, Res> {
  return { name, request, response };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMethodDef = MethodDef<string, z.ZodType<any, any>, z.ZodType<any, any>>;

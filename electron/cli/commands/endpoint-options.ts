import type { Command, OptionValues } from '@commander-js/extra-typings';
import { InputError } from '../../common/errors.js';
import { isEndpointSide, parseEndpoint, type EndpointSpec } from '../../common/profile/endpoint-side.js';

/** `--allow-host HOST` (repeatable): a host besides loopback that endpoint sides may send prompts to. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors commander's own Args constraint
export function addAllowHostOption<Args extends any[], Opts extends OptionValues, G extends OptionValues>(command: Command<Args, Opts, G>) {
  return command.option(
    '--allow-host <host>',
    'endpoint sides: also allow this host (loopback is always allowed; repeat for more)',
    (host: string, previous: string[]) => [...previous, host],
    [] as string[],
  );
}

/**
 * Both sides as endpoints, or undefined when neither is one. One endpoint beside an engine profile is
 * refused: the two would be different models with different samplers, not two deployments of one.
 */
export function endpointPair(a: string, b: string, flags: { a: string; b: string } = { a: '--a', b: '--b' }): { a: EndpointSpec; b: EndpointSpec } | undefined {
  const [ea, eb] = [isEndpointSide(a), isEndpointSide(b)];
  if (!ea && !eb) return undefined;
  if (ea !== eb) {
    const [endpoint, engine] = ea ? [flags.a, flags.b] : [flags.b, flags.a];
    throw new InputError(`${endpoint} is an endpoint and ${engine} an engine profile: compare two endpoints (two deployments), or two engine profiles`);
  }
  return { a: parseEndpoint(a), b: parseEndpoint(b) };
}

/** Flags that drive our engine and mean nothing for a server: refused by name, not ignored. */
export function refuseEngineFlags(given: Record<string, unknown>, names: Record<string, string>): void {
  for (const [key, flag] of Object.entries(names)) {
    if (given[key] !== undefined && given[key] !== false) throw new InputError(`${flag} runs our engine; it does not apply to endpoint sides (the servers run their own)`);
  }
}

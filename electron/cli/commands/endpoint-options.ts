import type { Command, OptionValues } from '@commander-js/extra-typings';
import { InputError } from '../../common/errors.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import { bothEndpoints } from '../../host/endpoint/both-endpoints.js';

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

/** Both sides as endpoints (bothEndpoints), named by the CLI's flags. */
export function endpointPair(a: string, b: string): { a: EndpointSpec; b: EndpointSpec } | undefined {
  return bothEndpoints(a, b, { a: '--a', b: '--b' });
}

/** Flags that drive our engine and mean nothing for a server: refused by name, not ignored. */
export function refuseEngineFlags(given: Record<string, unknown>, names: Record<string, string>): void {
  for (const [key, flag] of Object.entries(names)) {
    if (given[key] !== undefined && given[key] !== false) throw new InputError(`${flag} runs our engine; it does not apply to endpoint sides (the servers run their own)`);
  }
}

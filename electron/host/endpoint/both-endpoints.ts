import { InputError } from '../../common/errors.js';
import { isEndpointSide, parseEndpoint, type EndpointSpec } from '../../common/profile/endpoint-side.js';

/**
 * Both sides as endpoints, or undefined when neither is one. One endpoint beside an engine profile is
 * refused: the two would be different models with different samplers, not two deployments of one.
 * `names` says how the caller names the sides (the CLI's flags, the studio's fields).
 */
export function bothEndpoints(a: string, b: string, names: { a: string; b: string } = { a: 'profile A', b: 'profile B' }): { a: EndpointSpec; b: EndpointSpec } | undefined {
  const [ea, eb] = [isEndpointSide(a), isEndpointSide(b)];
  if (!ea && !eb) return undefined;
  if (ea !== eb) {
    const [endpoint, engine] = ea ? [names.a, names.b] : [names.b, names.a];
    throw new InputError(`${endpoint} is an endpoint and ${engine} an engine profile: compare two endpoints (two deployments), or two engine profiles`);
  }
  return { a: parseEndpoint(a), b: parseEndpoint(b) };
}

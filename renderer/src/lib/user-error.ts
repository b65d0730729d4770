import { METHOD_NAMES } from '../../../electron/common/api/methods.js';

const METHOD_PREFIX = new RegExp(`^(?:${METHOD_NAMES.join('|')}): `);

/**
 * An error's message as a user should read it. The host's request check prefixes the StudioApi method
 * ("compare: text: the prompt is empty"), and its error payload carries no other text (kind, message,
 * where: a location), so the method name, which means nothing to a user, is taken off here.
 */
export function userErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(METHOD_PREFIX, '');
}

import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { InputError } from '../common/errors.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { passThrough } from '../host/pass-through.js';

/**
 * `path` with its longest existing ancestor resolved through symbolic links (the rest appended as
 * given), so a link inside the exports folder that points elsewhere counts as elsewhere.
 */
async function realTarget(path: string): Promise<string> {
  const tail: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...tail.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return path;
      tail.push(basename(at));
      at = up;
    }
  }
}

/** True when `inner` is a folder strictly below `outer` (both absolute). */
function isBelow(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Browser mode's rule for Export fixture: the page names the target folder, so whoever holds the token
 * could otherwise write fixture folders anywhere this server's user can. Here a target must lie inside
 * the server's exports folder, the one the host proposes for every entry (`exportLocation`:
 * `<data dir>/exports/<history id>`); anything else is refused, naming that folder. The desktop app
 * does not go through this: its folder comes from a native dialog, the user's own choice.
 */
export function withExportsFolderOnly(studio: StudioHandlers): StudioHandlers {
  const handlers = passThrough(studio);
  const exportFixture: StudioHandlers['exportFixture'] = async (request) => {
    const proposed = (await studio.exportLocation({ id: request.id })).dir;
    const exportsDir = dirname(proposed);
    const target = resolve(request.dir);
    if (!isBelow(exportsDir, target) || !isBelow(await realTarget(exportsDir), await realTarget(target))) {
      throw new InputError(
        `export to ${request.dir} refused: in browser mode fixtures are written only inside the server's exports folder ${exportsDir} ` +
          `(a folder below it, such as ${proposed}); take a copy elsewhere with Download .zip`,
        request.dir,
      );
    }
    return studio.exportFixture(request);
  };
  handlers.exportFixture = exportFixture;
  return handlers as unknown as StudioHandlers;
}

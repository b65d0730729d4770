import { resolve } from 'node:path';
import { InputError } from '../common/errors.js';
import type { FileInput, ImportFile } from '../common/api/primitives.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { passThrough } from '../host/pass-through.js';

/**
 * The paths this window may name: what the user chose in the app's native dialogs, and the export
 * folders the host itself proposed. A renderer that was compromised (a bug, a malicious trace shown in
 * the page) could otherwise ask the main process to read or write any path the user can.
 */
export class DialogGrants {
  private readonly granted = new Set<string>();

  grant(path: string): void {
    this.granted.add(resolve(path));
  }

  has(path: string): boolean {
    return this.granted.has(resolve(path));
  }
}

/** StudioApi with every path argument checked against `grants`; file bytes pass as they are. */
export function withGrantedPathsOnly(studio: StudioHandlers, grants: DialogGrants): StudioHandlers {
  const handlers = passThrough(studio);
  const check = (input: FileInput | ImportFile | undefined, field: string) => {
    if (input !== undefined && 'path' in input && !grants.has(input.path)) refuse(field, input.path);
  };
  const importWavs: StudioHandlers['importWavs'] = async (request) => {
    check(request.a, 'a');
    check(request.b, 'b');
    return studio.importWavs(request);
  };
  const startImportWavs: StudioHandlers['startImportWavs'] = async (request) => {
    check(request.a, 'a');
    check(request.b, 'b');
    return studio.startImportWavs(request);
  };
  const importTraces: StudioHandlers['importTraces'] = async (request) => {
    for (const field of ['wavA', 'wavB', 'modulesA', 'modulesB'] as const) check(request[field], field);
    return studio.importTraces(request);
  };
  const exportLocation: StudioHandlers['exportLocation'] = async (request) => {
    const location = await studio.exportLocation(request);
    grants.grant(location.dir);
    return location;
  };
  const exportFixture: StudioHandlers['exportFixture'] = async (request) => {
    if (!grants.has(request.dir)) refuse('dir', request.dir);
    return studio.exportFixture(request);
  };
  Object.assign(handlers, { importWavs, startImportWavs, importTraces, exportLocation, exportFixture });
  return handlers as unknown as StudioHandlers;
}

function refuse(field: string, path: string): never {
  throw new InputError(`${field}: "${path}" was not chosen in one of the app's dialogs; the window may only name files and folders picked there`, field);
}

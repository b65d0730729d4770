import { describe, expect, it } from 'vitest';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { DialogGrants, withGrantedPathsOnly } from '../../../electron/main/dialog-grants.js';
import type { IpcMainLike } from '../../../electron/main/ipc.js';
import { registerShellIpc } from '../../../electron/main/shell-ipc.js';

/** A host that records which of the checked methods were reached. */
function recordingHost(reached: string[]): StudioHandlers {
  const record = (name: string, value: unknown = {}) => async () => {
    reached.push(name);
    return value;
  };
  return {
    importWavs: record('importWavs'),
    startImportWavs: record('startImportWavs', { jobId: 'job-1' }),
    importTraces: record('importTraces'),
    exportFixture: record('exportFixture'),
    exportLocation: record('exportLocation', { dir: '/data/exports/20260101-120000-1a2b3c' }),
    on: () => () => undefined,
  } as unknown as StudioHandlers;
}

const ID = '20260101-120000-1a2b3c';

describe('withGrantedPathsOnly: the window names only paths the user chose in a dialog', () => {
  it('refuses import and export paths no dialog returned, before the host sees them', async () => {
    const reached: string[] = [];
    const studio = withGrantedPathsOnly(recordingHost(reached), new DialogGrants());
    await expect(studio.importWavs({ a: { path: '/home/me/.ssh/id_rsa' }, b: { path: '/x.wav' }, maxLagMs: 50 })).rejects.toThrow(
      'a: "/home/me/.ssh/id_rsa" was not chosen in one of the app\'s dialogs; the window may only name files and folders picked there',
    );
    // The same import as a job (the studio page's way since it draws the audio while the host measures).
    await expect(studio.startImportWavs({ a: { name: 'a.wav', bytes: new Uint8Array([1]) }, b: { path: '/etc/passwd' }, maxLagMs: 50 })).rejects.toThrow('b: "/etc/passwd" was not chosen');
    const trace = { name: 'a.jsonl', text: '' };
    await expect(studio.importTraces({ a: trace, b: trace, modulesA: { path: '/etc/shadow' } } as never)).rejects.toThrow('modulesA: "/etc/shadow" was not chosen');
    await expect(studio.exportFixture({ id: ID, dir: '/etc/cron.d/x', overwrite: true })).rejects.toThrow('dir: "/etc/cron.d/x" was not chosen');
    expect(reached).toEqual([]);
  });

  it('passes bytes, the paths the dialogs returned, and the export folder the host proposed', async () => {
    const reached: string[] = [];
    const grants = new DialogGrants();
    const studio = withGrantedPathsOnly(recordingHost(reached), grants);
    const handlers = new Map<string, () => Promise<unknown>>();
    const ipc: IpcMainLike = {
      handle: (channel, run) => void handlers.set(channel, () => run({ senderFrame: { url: 'app://studio/' } })),
      removeHandler: () => undefined,
    };
    const dialog = {
      showOpenDialog: async () => ({ canceled: false, filePaths: ['/home/me/a.wav', '/home/me/b.wav'] }),
      showSaveDialog: async () => ({ canceled: false, filePath: '/home/me/fixture' }),
    };
    registerShellIpc(ipc, dialog, (url) => url.startsWith('app://studio/'), grants);
    await handlers.get('shell:openWavs')!();
    await handlers.get('shell:chooseExportDir')!();
    await studio.importWavs({ a: { path: '/home/me/a.wav' }, b: { name: 'b.wav', bytes: new Uint8Array([1]) } as never, maxLagMs: 50 });
    await studio.startImportWavs({ a: { path: '/home/me/a.wav' }, b: { path: '/home/me/b.wav' }, maxLagMs: 50 });
    await studio.exportFixture({ id: ID, dir: '/home/me/fixture', overwrite: false });
    const { dir } = await studio.exportLocation({ id: ID });
    await studio.exportFixture({ id: ID, dir, overwrite: false });
    expect(reached).toEqual(['importWavs', 'startImportWavs', 'exportFixture', 'exportLocation', 'exportFixture']);
  });
});

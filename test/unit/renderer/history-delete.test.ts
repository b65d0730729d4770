import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { PlayerLike } from '../../../renderer/src/audio/player.js';
import { historySelectors } from '../../../renderer/src/store/history/history-selectors.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const ONE = '20250101-000000-aaaaaa';
const TWO = '20250101-000001-bbbbbb';
const entry = (id: string, title: string) => ({ id, title, createdAt: '2025-01-01T00:00:00.000Z', kind: 'profiles' });

/**
 * A host with two entries. Its deleteHistory does what StudioHost's does: removes the folder, answers
 * { deleted: false } for one already gone; one in `locked` fails as a refused rename would.
 */
function setup() {
  const entries = [entry(ONE, 'eager vs graph'), entry(TWO, 'eager vs eager,fault=stale-feedback@8')];
  const deleted: string[] = [];
  const locked = new Set<string>();
  const studio = {
    listHistory: async () => ({ entries: entries.filter((e) => !deleted.includes(e.id)) }),
    openHistory: async ({ id }: { id: string }) => ({
      historyId: id,
      report: { verdict: 'diverged', metrics: {} },
      a: { sampleRate: 10, samples: new Float32Array(100) },
      b: { sampleRate: 10, samples: new Float32Array(100) },
    }),
    deleteHistory: async ({ id }: { id: string }) => {
      if (locked.has(id)) throw new Error(`EACCES: permission denied, rename '/data/history/${id}'`);
      if (deleted.includes(id)) return { deleted: false };
      deleted.push(id);
      return { deleted: true };
    },
  } as unknown as StudioApi;
  const log: string[] = [];
  // A player double that, like the Web Audio one, keeps the buffers it last loaded until the next load.
  let duration = 0;
  const player: PlayerLike = {
    load: (t) => ((duration = (t.a?.length ?? 0) / t.sampleRate), log.push('load')),
    unload: () => ((duration = 0), log.push('unload')),
    duration: () => duration,
    play: async (from) => void log.push(`play ${from}`),
    pause: () => (log.push('pause'), 0),
    position: () => 0,
    setGains: () => undefined,
    setLoop: () => undefined,
    onFrame: () => () => undefined,
  };
  const store = createStudioStore(studio, player);
  return { store, deleted, locked, log };
}

describe('history deletion asks first (the host removes the folder: no undo)', () => {
  it('asking removes nothing; Keep answers it and nothing is removed either', async () => {
    const { store, deleted } = setup();
    await store.getState().loadHistory();
    store.getState().askDelete(TWO);
    expect(historySelectors.pendingDelete(store.getState())).toEqual({ id: TWO, title: 'eager vs eager,fault=stale-feedback@8' });
    expect(historySelectors.status(store.getState())).toEqual({ shown: false, text: expect.stringMatching(/^Delete “eager vs eager,fault=stale-feedback@8”\? Press Delete again/) });
    store.getState().keepEntry();
    expect(historySelectors.pendingDelete(store.getState())).toBeUndefined();
    expect(historySelectors.status(store.getState())?.text).toBe('Kept “eager vs eager,fault=stale-feedback@8”.');
    expect(await store.getState().confirmDelete()).toBe(false); // nothing asked any more
    expect(deleted).toEqual([]);
    expect(historySelectors.entries(store.getState())).toHaveLength(2);
  });

  it('an unknown id asks nothing; asking about another row moves the question there', async () => {
    const { store } = setup();
    await store.getState().loadHistory();
    store.getState().askDelete('20990101-000000-zzzzzz');
    expect(historySelectors.pendingDelete(store.getState())).toBeUndefined();
    store.getState().askDelete(ONE);
    store.getState().askDelete(TWO);
    expect(historySelectors.pendingDelete(store.getState())?.id).toBe(TWO);
  });

  it('Delete removes the entry asked about; another entry on screen stays there', async () => {
    const { store, deleted } = setup();
    await store.getState().loadHistory();
    await store.getState().openHistory(TWO);
    store.getState().askDelete(ONE);
    expect(await store.getState().confirmDelete()).toBe(true);
    expect(deleted).toEqual([ONE]);
    expect(historySelectors.entries(store.getState()).map((e) => e.id)).toEqual([TWO]);
    expect(store.getState().comparison?.historyId).toBe(TWO);
    expect(historySelectors.status(store.getState())).toEqual({ shown: true, text: 'Deleted “eager vs graph”.' });
  });

  it('deleting the entry on screen empties the results: audio stopped and not playable, export and ABX gone', async () => {
    const { store, log } = setup();
    await store.getState().loadHistory();
    await store.getState().openHistory(ONE);
    store.getState().startAbx(7);
    await store.getState().togglePlay();
    expect(store.getState().playing).toBe(true);
    store.getState().askDelete(ONE);
    expect(await store.getState().confirmDelete()).toBe(true);
    const s = store.getState();
    expect(s.comparison).toBeUndefined();
    expect({ playing: s.playing, position: s.position, abx: s.abx, loopOn: s.loopOn }).toEqual({ playing: false, position: 0, abx: undefined, loopOn: false });
    // The deleted entry's takes are let go (they may be hundreds of MB), not just paused.
    expect(log.at(-1)).toBe('unload');
    expect(historySelectors.status(s)?.text).toBe('Deleted “eager vs graph”; it was on screen, so the results are cleared.');
    // Nothing is on screen: Space plays nothing.
    await store.getState().togglePlay();
    expect(log.filter((l) => l.startsWith('play'))).toEqual(['play 0']);
    expect(store.getState().playing).toBe(false);
    // Export has nothing to write.
    await store.getState().exportCurrent();
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
  });

  it('an entry already removed elsewhere (the host answers deleted: false) leaves the list all the same', async () => {
    const { store, deleted } = setup();
    await store.getState().loadHistory();
    deleted.push(TWO);
    store.getState().askDelete(TWO);
    expect(await store.getState().confirmDelete()).toBe(true);
    expect(historySelectors.entries(store.getState()).map((e) => e.id)).toEqual([ONE]);
  });

  it('a failed removal keeps the row, says so, and leaves the comparison on screen', async () => {
    const { store, locked } = setup();
    await store.getState().loadHistory();
    await store.getState().openHistory(ONE);
    locked.add(ONE);
    store.getState().askDelete(ONE);
    expect(await store.getState().confirmDelete()).toBe(false);
    expect(historySelectors.entries(store.getState()).map((e) => e.id)).toEqual([ONE, TWO]);
    expect(store.getState().comparison?.historyId).toBe(ONE);
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual([`Deleting failed: EACCES: permission denied, rename '/data/history/${ONE}'`]);
    expect(historySelectors.status(store.getState())?.text).toBe('“eager vs graph” was not deleted (see the notice).');
  });
});

import { z } from 'zod';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import type { KeyValueStore } from '../../lib/store.js';
import {
  type DailyThreadRecord,
  dailyThreadRecordSchema,
  type ShownFigures,
  shownFiguresSchema,
} from './daily-thread-record.js';

const dayMs = 24 * 3_600_000;
/** Records outlive their day by a week: a late correction or retry still finds the thread. */
const keepMs = 8 * dayMs;

const openKey = 'pacing/thread-open';
const keysSchema = z.array(z.string());

/**
 * The daily threads' records (daily-thread.ts), each kept eight days:
 * - `pacing/thread/<project>/<date>/<channel>`: the day's record (parent, thread, figures, counted notices);
 * - `…/shown`: the figures the parent shows, and when they were shown;
 * - `pacing/thread-open`: the records whose parent may still need an edit.
 */
export function createDailyThreadStore(store: KeyValueStore) {
  const shownKey = (key: string) => `${key}/shown`;
  return {
    /** The key of one project's day in one channel (also the key its changes are serialised by). */
    recordKey: (project: string, date: string, channel: ChannelRef) =>
      `pacing/thread/${encodeURIComponent(project)}/${date}/${channelKey(channel)}`,
    record: (key: string): Promise<DailyThreadRecord | undefined> => store.get(key, dailyThreadRecordSchema),
    saveRecord: (key: string, record: DailyThreadRecord): Promise<void> => store.set(key, record, keepMs),
    shown: (key: string): Promise<ShownFigures | undefined> => store.get(shownKey(key), shownFiguresSchema),
    saveShown: (key: string, shown: ShownFigures): Promise<void> => store.set(shownKey(key), shown, keepMs),
    openKeys: async (): Promise<string[]> => (await store.get(openKey, keysSchema)) ?? [],
    saveOpenKeys: (keys: readonly string[]): Promise<void> => store.set(openKey, keys, keepMs),
  };
}

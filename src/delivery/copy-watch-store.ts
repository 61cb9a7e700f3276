import { z } from 'zod';
import type { ChannelRef } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import type { ThreadTarget } from './ports.js';

/** A watch for a late copy, as stored so that a restarted process (or another replica) goes on with it. */
export interface StoredWatch {
  /** The delivery's id and idempotency key. */
  readonly id: string;
  readonly key: string;
  readonly channel: ChannelRef;
  /** The copy the ledger names. */
  readonly canonical: string;
  readonly thread?: ThreadTarget;
  readonly from: number;
  readonly until: number;
  /** The renderings its attempts carried, files left out (a look matches the text). */
  readonly messages: readonly NeutralMessage[];
}

const key = 'delivery/copy-watches';
/** More than this many watches at once is a platform outage: the newest are kept. */
const keptWatches = 200;

const channelSchema = z.object({
  platform: z.enum(['discord', 'slack', 'console']),
  workspaceId: z.string(),
  channelId: z.string(),
});
const watchesSchema = z.array(
  z.object({
    id: z.string(),
    key: z.string(),
    channel: channelSchema,
    canonical: z.string(),
    thread: z.object({ parentMessageId: z.string(), threadId: z.string().optional() }).optional(),
    from: z.number(),
    until: z.number(),
    messages: z.array(z.record(z.string(), z.unknown())),
  }),
) as unknown as z.ZodType<readonly StoredWatch[]>;

/**
 * The watches for late copies (extra-copies.ts), kept in the store so a restart inside a watch's span (90 s
 * after a repeat) does not leave a late copy standing where no event would show it (Discord without the
 * gateway). One value for the fleet, read at start and rewritten when a watch begins or ends; two replicas
 * writing at once may drop one (its own process still has it in memory).
 *
 * Cost: a read and a write per watch begun or ended (only after a repeat), a read at start.
 */
export function createCopyWatchStore(store: KeyValueStore, clock: Clock) {
  const all = async () => (await store.get(key, watchesSchema)) ?? [];
  const save = async (watches: readonly StoredWatch[]): Promise<void> => {
    if (watches.length === 0) {
      await store.delete(key);
      return;
    }
    const until = Math.max(...watches.map((w) => w.until));
    await store.set(key, watches.slice(-keptWatches), Math.max(60_000, until - clock.now() + 3_600_000));
  };
  return {
    all,
    async add(watch: StoredWatch): Promise<void> {
      await save([...(await all()).filter((w) => w.key !== watch.key), watch]);
    },
    async remove(watchKey: string): Promise<void> {
      const watches = await all();
      if (watches.some((w) => w.key === watchKey)) await save(watches.filter((w) => w.key !== watchKey));
    },
  };
}

export type CopyWatchStore = ReturnType<typeof createCopyWatchStore>;

/** A message as a watch keeps it: a file's bytes left out (a look matches the text). */
export function withoutFiles(message: NeutralMessage): NeutralMessage {
  if (message.image?.kind !== 'attachment') return message;
  const { image: _image, ...rest } = message;
  return rest;
}

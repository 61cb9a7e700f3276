import { z } from 'zod';
import { channelKey, workspaceKey } from '../domain/channels.js';
import { type NoticeKind, noticeKinds } from '../domain/events.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import { withStoreLock } from '../lib/store-lock.js';
import type { ChannelRef, Subscription, SubscriptionStore } from './ports.js';

export const channelRefSchema = z.object({
  platform: z.enum(['discord', 'slack', 'console']),
  workspaceId: z.string().min(1),
  channelId: z.string().min(1),
});

export const subscriptionSchema = z.object({
  project: z.string().min(1),
  channel: channelRefSchema,
  kinds: z.array(z.enum(noticeKinds)),
  createdBy: z.string(),
  createdAt: z.number(),
  kindsAddedAt: z.partialRecord(z.enum(noticeKinds), z.number()).optional(),
});

const channelIndexSchema = z.array(z.string());
const announcedSchema = z.object({ at: z.number() });
const projectIndexSchema = z.array(channelRefSchema);

/** How often an index write is read back and redone when a concurrent writer overwrote it. */

/** Kinds in the canonical order of {@link noticeKinds}, without duplicates. */
function canonicalKinds(kinds: Iterable<NoticeKind>): NoticeKind[] {
  const set = new Set(kinds);
  return noticeKinds.filter((k) => set.has(k));
}

/**
 * {@link SubscriptionStore} on a {@link KeyValueStore} (memory, SQLite or Redis through keyv).
 *
 * Layout: the truth is one record per (project, channel); two indexes make the
 * two lookups cheap without a key scan, which keyv cannot do portably:
 * - `subscriptions/record/<project>/<channel>`   the {@link Subscription}
 * - `subscriptions/by-project/<project>`        channels with a record for the project
 * - `subscriptions/by-channel/<channel>`        projects with a record for the channel
 * - `subscriptions/by-workspace/<workspace>`    channels with a record in the server/workspace
 *   (for removing a workspace at uninstall; one read on subscribe, one or two on unsubscribe)
 *
 * Concurrency: every step is a read-modify-write of ONE key and idempotent. Within one
 * process the steps on a key are serialized by a per-key queue of this store instance;
 * across replicas an index is changed under its lock in the store (`<key>#lock`, one
 * atomic set-if-absent, {@link withStoreLock}): two admins on two replicas subscribing
 * channels to one project at the same moment both stay listed (bench:replicas lost 1 of
 * 24 such subscriptions to the read-modify-write race before). The record is written
 * before the indexes are extended and deleted before they are shrunk, so an index entry
 * without a record is harmless (skipped); subscribing again repairs both indexes.
 */
/** Where a project's subscribed channels are listed: present once the project ever had a subscription. */
export const subscriptionIndexKey = (project: string) =>
  `subscriptions/by-project/${encodeURIComponent(project)}`;

/**
 * An uninstall (src/app/forget-workspace.ts): deletes every `subscriptions/…` key that names one of `named` (a
 * workspace's channel key fragments), such as the "now watching" marks keyed by project first; the keys removed.
 * The records and indexes go through {@link SubscriptionStore.removeWorkspace} first.
 */
export function forgetSubscriptionKeysNaming(
  settingsStore: KeyValueStore,
  named: readonly string[],
): Promise<number> {
  return settingsStore.deletePrefix('subscriptions/', named);
}

export function createSubscriptionStore(store: KeyValueStore, options: { clock: Clock }): SubscriptionStore {
  const recordKey = (project: string, channel: ChannelRef) =>
    `subscriptions/record/${encodeURIComponent(project)}/${channelKey(channel)}`;
  const projectIndexKey = subscriptionIndexKey;
  const channelIndexKey = (channel: ChannelRef) => `subscriptions/by-channel/${channelKey(channel)}`;
  const workspaceIndexKey = (workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>) =>
    `subscriptions/by-workspace/${workspaceKey(workspace)}`;
  // ~40 bytes per (project, channel) ever subscribed; kept after unsubscribing so a return is not re-announced.
  const announcedKey = (project: string, channel: ChannelRef) =>
    `subscriptions/announced/${encodeURIComponent(project)}/${channelKey(channel)}`;

  /** Per-key queues: one read-modify-write at a time per key in this process. */
  const queues = new Map<string, Promise<unknown>>();
  function serialized<T>(key: string, step: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve();
    const result = previous.then(step, step);
    const settled = result.then(
      () => {},
      () => {},
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return result;
  }

  const readRecord = (project: string, channel: ChannelRef): Promise<Subscription | undefined> =>
    store.get(recordKey(project, channel), subscriptionSchema);

  /** Adds or removes one member of a list-valued key: in this process one at a time, across replicas under its lock. */
  async function updateIndex<T>(
    key: string,
    schema: z.ZodType<T[]>,
    member: T,
    same: (a: T, b: T) => boolean,
    present: boolean,
  ): Promise<void> {
    await serialized(key, () =>
      withStoreLock(store, `${key}#lock`, async () => {
        const current = (await store.get(key, schema)) ?? [];
        if (current.some((m) => same(m, member)) === present) return;
        const next = present ? [...current, member] : current.filter((m) => !same(m, member));
        if (next.length === 0) await store.delete(key);
        else await store.set(key, next);
      }),
    );
  }

  const sameChannel = (a: ChannelRef, b: ChannelRef) => channelKey(a) === channelKey(b);
  const sameString = (a: string, b: string) => a === b;

  async function setMembership(project: string, channel: ChannelRef, present: boolean): Promise<void> {
    await updateIndex(projectIndexKey(project), projectIndexSchema, toRef(channel), sameChannel, present);
    await updateIndex(channelIndexKey(channel), channelIndexSchema, project, sameString, present);
    // The workspace lists a channel while the channel has any subscription.
    const channelInUse =
      present || ((await store.get(channelIndexKey(channel), channelIndexSchema))?.length ?? 0) > 0;
    await updateIndex(
      workspaceIndexKey(channel),
      projectIndexSchema,
      toRef(channel),
      sameChannel,
      channelInUse,
    );
  }

  async function unsubscribe(
    channel: ChannelRef,
    project: string,
    kinds?: readonly NoticeKind[],
  ): Promise<Subscription | undefined> {
    const key = recordKey(project, channel);
    const left = await serialized(key, async () => {
      const existing = await readRecord(project, channel);
      const removed = new Set<NoticeKind>(kinds ?? noticeKinds);
      const remaining = canonicalKinds((existing?.kinds ?? []).filter((k) => !removed.has(k)));
      if (existing && remaining.length > 0) {
        const next: Subscription = { ...existing, kinds: remaining };
        await store.set(key, next);
        return next;
      }
      await store.delete(key);
      return undefined;
    });
    if (!left) await setMembership(project, channel, false);
    return left;
  }

  return {
    claimWatchingAnnouncement(channel, project) {
      const key = announcedKey(project, channel);
      return serialized(key, async () => {
        if ((await store.get(key, announcedSchema)) !== undefined) return false;
        await store.set(key, { at: options.clock.now() });
        return true;
      });
    },
    async subscribe(channel, project, kinds, by) {
      const key = recordKey(project, channel);
      const subscription = await serialized(key, async () => {
        const existing = await readRecord(project, channel);
        const now = options.clock.now();
        // Kinds keep the time they were first added: the digest starts at the next scheduled time after it.
        const kindsAddedAt: Partial<Record<NoticeKind, number>> = { ...existing?.kindsAddedAt };
        for (const kind of kinds) {
          if (!existing?.kinds.includes(kind)) kindsAddedAt[kind] = now;
        }
        const next: Subscription = {
          project,
          channel: toRef(channel),
          kinds: canonicalKinds([...(existing?.kinds ?? []), ...kinds]),
          createdBy: existing?.createdBy ?? by,
          createdAt: existing?.createdAt ?? now,
          kindsAddedAt,
        };
        await store.set(key, next);
        return next;
      });
      await setMembership(project, channel, true);
      return subscription;
    },

    unsubscribe,

    async forChannel(channel) {
      const projects = (await store.get(channelIndexKey(channel), channelIndexSchema)) ?? [];
      const records = await Promise.all(projects.map((p) => readRecord(p, channel)));
      return records.filter((r): r is Subscription => r !== undefined && r.kinds.length > 0);
    },

    async forProject(project, kind) {
      const channels = (await store.get(projectIndexKey(project), projectIndexSchema)) ?? [];
      const records = await Promise.all(channels.map((c) => readRecord(project, c)));
      return records.filter(
        (r): r is Subscription =>
          r !== undefined && (kind === undefined ? r.kinds.length > 0 : r.kinds.includes(kind)),
      );
    },

    async removeWorkspace(workspace) {
      const channels = (await store.get(workspaceIndexKey(workspace), projectIndexSchema)) ?? [];
      let removed = 0;
      for (const channel of channels) {
        for (const project of (await store.get(channelIndexKey(channel), channelIndexSchema)) ?? []) {
          await unsubscribe(channel, project);
          removed += 1;
        }
      }
      await store.delete(workspaceIndexKey(workspace));
      return removed;
    },
  };
}

/** Strips extra properties an adapter may have put on its channel object before storing it. */
function toRef(channel: ChannelRef): ChannelRef {
  return { platform: channel.platform, workspaceId: channel.workspaceId, channelId: channel.channelId };
}

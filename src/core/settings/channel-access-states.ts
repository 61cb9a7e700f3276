import { z } from 'zod';
import { channelKey } from '../../domain/channels.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelAccessProblem, ChannelPermission, ChannelRef } from '../ports.js';

/** A channel the bot found it cannot post in: notices for it are held until it can again. */
export interface CannotPost {
  readonly reason: ChannelAccessProblem;
  /** For 'no-permission': what to grant, when the platform said. */
  readonly missing?: readonly ChannelPermission[];
  /** Epoch ms of the first refused post (kept while the state lasts). */
  readonly since: number;
  /** Epoch ms the state was last confirmed (a refused post or a failed re-check). */
  readonly checkedAt: number;
}

const problems = ['not-member', 'no-permission', 'archived', 'gone', 'token-revoked', 'unknown'] as const;
const permissions = [
  'view-channel',
  'send-messages',
  'send-messages-in-threads',
  'embed-links',
  'attach-files',
] as const;

const cannotPostSchema = z.object({
  reason: z.enum(problems),
  missing: z.array(z.enum(permissions)).optional(),
  since: z.number(),
  checkedAt: z.number(),
}) as unknown as z.ZodType<CannotPost>;

const indexSchema = z.array(
  z.object({
    platform: z.enum(['discord', 'slack', 'console']),
    workspaceId: z.string(),
    channelId: z.string(),
  }),
);

/**
 * Which channels the bot cannot post in, shared by every replica: written by the
 * delivery pipeline when a platform refuses a post for good (not in the channel,
 * a permission missing, archived, deleted, token revoked) and cleared when a post
 * or a re-check succeeds; read by /subscriptions, /status and /healthz.
 *
 * Layout: `settings/access/<channel>` (~100 bytes) per channel in that state, and
 * one index `settings/access-index` listing them (rewritten only when a channel
 * enters or leaves the state). No value exists for a channel that is fine.
 */
export interface ChannelAccessStates {
  get(channel: ChannelRef): Promise<CannotPost | undefined>;
  /** Records the refusal; keeps `since` of a state already recorded. */
  markCannotPost(
    channel: ChannelRef,
    problem: Pick<CannotPost, 'reason' | 'missing'>,
    now: number,
  ): Promise<CannotPost>;
  /** The bot can post there again. */
  markCanPost(channel: ChannelRef): Promise<void>;
  /** Every channel in the state now (for /healthz and the re-checks after a restart). */
  list(): Promise<readonly { readonly channel: ChannelRef; readonly state: CannotPost }[]>;
}

export function createChannelAccessStates(store: KeyValueStore): ChannelAccessStates {
  const key = (channel: ChannelRef) => `settings/access/${channelKey(channel)}`;
  const indexKey = 'settings/access-index';
  const index = async () => (await store.get(indexKey, indexSchema)) ?? [];
  const same = (a: ChannelRef, b: ChannelRef) => channelKey(a) === channelKey(b);
  const toRef = (c: ChannelRef): ChannelRef => ({
    platform: c.platform,
    workspaceId: c.workspaceId,
    channelId: c.channelId,
  });

  return {
    get: (channel) => store.get(key(channel), cannotPostSchema),
    async markCannotPost(channel, problem, now) {
      const previous = await store.get(key(channel), cannotPostSchema);
      const state: CannotPost = {
        reason: problem.reason,
        ...(problem.missing && problem.missing.length > 0 ? { missing: [...problem.missing] } : {}),
        since: previous?.since ?? now,
        checkedAt: now,
      };
      await store.set(key(channel), state);
      if (!previous) {
        const listed = await index();
        if (!listed.some((c) => same(c, channel))) await store.set(indexKey, [...listed, toRef(channel)]);
      }
      return state;
    },
    async markCanPost(channel) {
      if (!(await store.delete(key(channel)))) return;
      const listed = await index();
      const rest = listed.filter((c) => !same(c, channel));
      if (rest.length !== listed.length) await store.set(indexKey, rest);
    },
    async list() {
      const listed = await index();
      const states = await Promise.all(
        listed.map(async (channel) => ({ channel, state: await store.get(key(channel), cannotPostSchema) })),
      );
      return states.flatMap((s) => (s.state ? [{ channel: s.channel, state: s.state }] : []));
    },
  };
}

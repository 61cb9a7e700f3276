import { z } from 'zod';
import { noticeKinds } from '../../domain/events.js';
import type { NoticeRules } from '../../domain/notice-rules.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey } from './channel-settings-keys.js';

/**
 * A channel's pings and filters (`/ping`, `/filter`): one key per channel that set any
 * (`settings/notice-rules/<channel>`, ~60-600 bytes: a group id, kinds, up to 20 keywords of each list,
 * milestone levels); none is the absence of the key. The delivery pipeline reads it with the channel's profile.
 */
export interface NoticeRulesSettings {
  get(channel: ChannelRef): Promise<NoticeRules | undefined>;
  /** Changes the rules (`change` gets the current ones); an empty result deletes the key. */
  update(channel: ChannelRef, change: (rules: NoticeRules) => NoticeRules): Promise<NoticeRules>;
}

const rulesSchema = z.object({
  ping: z.object({ target: z.string(), kinds: z.array(z.enum(noticeKinds)) }).optional(),
  wall: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }).optional(),
  milestoneLevels: z.array(z.number()).optional(),
}) as unknown as z.ZodType<NoticeRules>;

/** {@link NoticeRulesSettings} on the injected store. */
export function createNoticeRulesSettings(store: KeyValueStore): NoticeRulesSettings {
  const key = (channel: ChannelRef) => channelSettingKey('noticeRules', channel);
  return {
    get: (channel) => store.get(key(channel), rulesSchema),
    async update(channel, change) {
      const next = change((await store.get(key(channel), rulesSchema)) ?? {});
      const kept = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as NoticeRules;
      if (Object.keys(kept).length === 0) await store.delete(key(channel));
      else await store.set(key(channel), kept);
      return kept;
    },
  };
}

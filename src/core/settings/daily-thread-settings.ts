import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey } from './channel-settings-keys.js';

/**
 * Whether a channel reads its supporter notices in a daily thread (`/thread on`).
 * One key per channel that turned it on (~30 bytes, `settings/daily-thread/<channel>`);
 * off is the absence of the key, so the default costs nothing.
 */
export interface DailyThreadSettings {
  isOn(channel: ChannelRef): Promise<boolean>;
  set(channel: ChannelRef, on: boolean): Promise<void>;
}

/** {@link DailyThreadSettings} on the injected store. */
export function createDailyThreadSettings(store: KeyValueStore): DailyThreadSettings {
  const key = (channel: ChannelRef) => channelSettingKey('dailyThread', channel);
  return {
    isOn: async (channel) => (await store.get(key(channel), z.literal(true))) === true,
    async set(channel, on) {
      if (on) await store.set(key(channel), true);
      else await store.delete(key(channel));
    },
  };
}

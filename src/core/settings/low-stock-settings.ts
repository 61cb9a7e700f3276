import { z } from 'zod';
import { isLowStockThreshold } from '../../domain/reward-stock.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey } from './channel-settings-keys.js';

/**
 * A channel's low-stock threshold (`/lowstock <n>`): told once when a reward is down to
 * `n` or fewer. One key per channel that set one (~20 bytes, `settings/low-stock/<channel>`);
 * off, the default, is the absence of the key.
 */
export interface LowStockSettings {
  thresholdOf(channel: ChannelRef): Promise<number | undefined>;
  /** `undefined` turns it off. */
  set(channel: ChannelRef, threshold: number | undefined): Promise<void>;
}

const thresholdSchema = z.number().refine(isLowStockThreshold);

/** {@link LowStockSettings} on the injected store. */
export function createLowStockSettings(store: KeyValueStore): LowStockSettings {
  const key = (channel: ChannelRef) => channelSettingKey('lowStock', channel);
  return {
    thresholdOf: async (channel) => (await store.get(key(channel), thresholdSchema)) ?? undefined,
    async set(channel, threshold) {
      if (threshold === undefined) await store.delete(key(channel));
      else await store.set(key(channel), threshold);
    },
  };
}

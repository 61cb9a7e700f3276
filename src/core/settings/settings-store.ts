import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';
import type { Locale } from '../command-core.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey, workspaceLanguageKey } from './channel-settings-keys.js';

/** Where a locale setting applies: one channel, or every channel of the server/workspace. */
export type SettingScope = 'channel' | 'workspace';

/** The locale settings of one channel, as far as they are set. */
export interface LocaleSettings {
  readonly channel?: Locale;
  readonly workspace?: Locale;
}

/**
 * Per-channel and per-workspace settings (today: the locale). Kept in the
 * injected store so every replica answers in the same language.
 */
export interface SettingsStore {
  /** Both levels for the channel; the caller decides the fallback order. */
  locales(channel: ChannelRef): Promise<LocaleSettings>;
  setLocale(channel: ChannelRef, scope: SettingScope, locale: Locale): Promise<void>;
  /** Removes the setting of that scope (the next level applies again). */
  clearLocale(channel: ChannelRef, scope: SettingScope): Promise<void>;
}

const localeSchema = z.enum(['en', 'de']);

/**
 * {@link SettingsStore} on a {@link KeyValueStore}. One key per setting, so a
 * write never has to read-modify-write a shared value: two admins setting the
 * language at once simply end with the last one, which is what they see.
 */
export function createSettingsStore(store: KeyValueStore): SettingsStore {
  const keyFor = (channel: ChannelRef, scope: SettingScope) =>
    scope === 'channel' ? channelSettingKey('language', channel) : workspaceLanguageKey(channel);

  return {
    async locales(channel) {
      const [channelLocale, workspaceLocale] = await Promise.all([
        store.get(keyFor(channel, 'channel'), localeSchema),
        store.get(keyFor(channel, 'workspace'), localeSchema),
      ]);
      return {
        ...(channelLocale ? { channel: channelLocale } : {}),
        ...(workspaceLocale ? { workspace: workspaceLocale } : {}),
      };
    },
    async setLocale(channel, scope, locale) {
      await store.set(keyFor(channel, scope), localeSchema.parse(locale));
    },
    async clearLocale(channel, scope) {
      await store.delete(keyFor(channel, scope));
    },
  };
}

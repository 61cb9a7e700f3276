import { type ChannelRef, channelKey, workspaceKey } from '../../domain/channels.js';
import type { KeyValueStore } from '../../lib/store-port.js';

/**
 * Where each per-channel setting is kept: `<prefix><channel key>` (a campaign end adds `/<project>`). One table, so a
 * workspace's uninstall ({@link forgetChannelSettings}) finds every setting of its channels, a new one included.
 */
export const channelSettingPrefixes = {
  language: 'settings/locale/channel/',
  pacing: 'settings/pacing/',
  dailyThread: 'settings/daily-thread/',
  lowStock: 'settings/low-stock/',
  noticeRules: 'settings/notice-rules/',
  deadline: 'settings/deadline/',
  rollCall: 'settings/roll-call/',
} as const;

export type ChannelSetting = keyof typeof channelSettingPrefixes;

/** The key of a channel's setting. */
export function channelSettingKey(setting: ChannelSetting, channel: ChannelRef): string {
  return `${channelSettingPrefixes[setting]}${channelKey(channel)}`;
}

/** The workspace's own language (`/language scope:workspace`). */
export function workspaceLanguageKey(workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>): string {
  return `settings/locale/workspace/${workspaceKey(workspace)}`;
}

/** Deletes every per-channel setting of the workspace's channels and its own language; the values removed, by setting. */
export async function forgetChannelSettings(
  store: KeyValueStore,
  workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
): Promise<Record<ChannelSetting, number>> {
  // Every channel key of the workspace starts with this (channelKey = platform:workspace:channel).
  const channels = `${workspaceKey(workspace)}:`;
  const removed = {} as Record<ChannelSetting, number>;
  for (const [setting, prefix] of Object.entries(channelSettingPrefixes) as [ChannelSetting, string][]) {
    removed[setting] = await store.deletePrefix(`${prefix}${channels}`);
  }
  if (await store.delete(workspaceLanguageKey(workspace))) removed.language += 1;
  return removed;
}

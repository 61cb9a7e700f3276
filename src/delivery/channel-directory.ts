import type {
  CannotPost,
  ChannelAccessStates,
  ChannelPacing,
  DailyThreadSettings,
  Locale,
  LowStockSettings,
  NoticeRulesSettings,
  PacingSettings,
  SubscriptionStore,
} from '../core/index.js';
import type { ChannelRef } from '../domain/channels.js';
import { channelKey } from '../domain/channels.js';
import type { NoticeKind } from '../domain/events.js';
import type { NoticeRules } from '../domain/notice-rules.js';
import { StampedCache } from '../lib/change-stamp.js';
import type { KeyValueStore } from '../lib/store.js';

/** What delivery needs to know about a channel, read once and cached until a setting changes. */
export interface ChannelProfile {
  readonly locale: Locale;
  /** The IANA zone the channel's times are written in (CommandCore.timeZoneFor). */
  readonly timeZone: string;
  readonly pacing: ChannelPacing;
  readonly dailyThread: boolean;
  /** Set while the bot cannot post there. */
  readonly cannotPost: CannotPost | undefined;
  /** The /lowstock threshold; undefined: no low-stock notices. */
  readonly lowStock: number | undefined;
  /** The /ping and /filter rules; undefined: no pings, no filters. */
  readonly rules: NoticeRules | undefined;
}

export interface ChannelDirectoryOptions {
  /** The store the settings are written through (a change-stamped view: see src/lib/change-stamp.ts). */
  readonly store: KeyValueStore;
  readonly stampKey: string;
  readonly subscriptions: SubscriptionStore;
  readonly localeFor: (channel: ChannelRef) => Promise<Locale>;
  readonly timeZoneFor: (channel: ChannelRef) => Promise<string>;
  readonly pacing: PacingSettings;
  readonly dailyThreads: DailyThreadSettings;
  readonly access: ChannelAccessStates;
  readonly lowStock: LowStockSettings;
  /** Each channel's pings and filters (absent: none anywhere). */
  readonly noticeRules?: NoticeRulesSettings;
}

/**
 * The subscriptions and each channel's settings (language, pacing and quiet hours,
 * daily thread, access, low-stock threshold) as delivery reads them: cached in memory, checked by ONE read
 * of the settings' change stamp per round (`refresh`), and read again only after a
 * command (here or on another replica) changed something. Without it every notice
 * re-read the subscription index, each subscription record, the pacing, language and
 * thread settings: 15 reads for one notice to one channel.
 */
export function createChannelDirectory(options: ChannelDirectoryOptions) {
  const { subscriptions } = options;
  const cache = new StampedCache(options.store, options.stampKey);

  async function readProfile(channel: ChannelRef): Promise<ChannelProfile> {
    const [locale, timeZone, pacing, dailyThread, cannotPost, lowStock, rules] = await Promise.all([
      options.localeFor(channel),
      options.timeZoneFor(channel),
      options.pacing.get(channel),
      options.dailyThreads.isOn(channel),
      options.access.get(channel),
      options.lowStock.thresholdOf(channel),
      options.noticeRules?.get(channel),
    ]);
    return { locale, timeZone, pacing, dailyThread, cannotPost, lowStock, rules };
  }

  return {
    /** One read; true when the settings changed since the last round (the cache was dropped). */
    refresh: (): Promise<boolean> => cache.refresh(),

    /** Forgets everything (this process changed a setting itself and must not wait for the next round). */
    invalidate: (): void => cache.drop(),

    /** The channels subscribed to this kind of the project's notices (any of them, when several: each once). */
    async channelsFor(
      project: string,
      kind: NoticeKind | readonly NoticeKind[],
    ): Promise<readonly ChannelRef[]> {
      const all = await cache.keep(`by-project\n${project}`, () => subscriptions.forProject(project));
      const kinds: readonly NoticeKind[] = typeof kind === 'string' ? [kind] : kind;
      return all.filter((s) => kinds.some((k) => s.kinds.includes(k))).map((s) => s.channel);
    },

    profile(channel: ChannelRef): Promise<ChannelProfile> {
      return cache.keep(`profile\n${channelKey(channel)}`, () => readProfile(channel));
    },
  };
}

export type ChannelDirectory = ReturnType<typeof createChannelDirectory>;

import type {
  CannotPost,
  ChannelAccessStates,
  ChannelPacing,
  DailyThreadSettings,
  Locale,
  LowStockSettings,
  NoticeRulesSettings,
  PacingSettings,
  Subscription,
  SubscriptionStore,
} from '../core/index.js';
import type { ChannelRef } from '../domain/channels.js';
import { channelKey } from '../domain/channels.js';
import type { NoticeKind } from '../domain/events.js';
import type { NoticeRules } from '../domain/notice-rules.js';
import { readChangeStamp } from '../lib/change-stamp.js';
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
  const { store, stampKey, subscriptions } = options;
  let stamp: string | undefined;
  let checked = false;
  const byProject = new Map<string, Promise<readonly Subscription[]>>();
  const profiles = new Map<string, Promise<ChannelProfile>>();

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

  function cached<T>(map: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
    let value = map.get(key);
    if (!value) {
      const reading = read();
      value = reading;
      map.set(key, reading);
      // A failed read is not kept: the next round reads again.
      reading.catch(() => {
        if (map.get(key) === reading) map.delete(key);
      });
    }
    return value;
  }

  return {
    /** One read; true when the settings changed since the last round (the cache was dropped). */
    async refresh(): Promise<boolean> {
      const current = await readChangeStamp(store, stampKey);
      if (checked && current === stamp) return false;
      stamp = current;
      checked = true;
      byProject.clear();
      profiles.clear();
      return true;
    },

    /** Forgets everything (this process changed a setting itself and must not wait for the next round). */
    invalidate(): void {
      checked = false;
      byProject.clear();
      profiles.clear();
    },

    /** The channels subscribed to this kind of the project's notices (any of them, when several: each once). */
    async channelsFor(
      project: string,
      kind: NoticeKind | readonly NoticeKind[],
    ): Promise<readonly ChannelRef[]> {
      const all = await cached(byProject, project, () => subscriptions.forProject(project));
      const kinds: readonly NoticeKind[] = typeof kind === 'string' ? [kind] : kind;
      return all.filter((s) => kinds.some((k) => s.kinds.includes(k))).map((s) => s.channel);
    },

    profile(channel: ChannelRef): Promise<ChannelProfile> {
      return cached(profiles, channelKey(channel), () => readProfile(channel));
    },
  };
}

export type ChannelDirectory = ReturnType<typeof createChannelDirectory>;

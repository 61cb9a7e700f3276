import type { CampaignSettings, SubscriptionStore } from '../core/index.js';
import { channelKey } from '../domain/channels.js';
import { StampedCache } from '../lib/change-stamp.js';
import type { KeyValueStore } from '../lib/store.js';

/** Where the settings' change stamp is (src/lib/change-stamp.ts): every subscription and setting write moves it. */
export interface SettingsStamp {
  readonly store: KeyValueStore;
  readonly key: string;
}

/** What the campaign checks read about the channels, kept from round to round by {@link cachedCampaignReads}. */
export interface CampaignReads {
  readonly subscriptions: Pick<SubscriptionStore, 'forProject'>;
  readonly campaign: Pick<CampaignSettings, 'deadlineOf' | 'rollCallOf'>;
}

/**
 * The campaign checks' reads of the subscriptions and the /deadline and /rollcall settings, kept in memory and dropped when the settings' change stamp moved: `refresh` reads the stamp once per
 * round, as the delivery's channel directory does. Uncached, every round read each held project's subscription
 * index and records twice (once per check) and a setting per channel and check: about 6 reads per project a
 * round, 6,000 a minute for a replica holding 1,000 projects. A change by a command on any replica is seen at
 * the next round. A failed read is not kept; a failed stamp read drops everything (the next reads go to the store).
 * The time zone is not kept: it is read only for a channel with a roll-call, and its reader turns a failed read
 * into the configured zone, which must not stay.
 */
export function cachedCampaignReads(
  reads: CampaignReads,
  stamp: SettingsStamp,
): CampaignReads & { refresh(): Promise<void> } {
  const cache = new StampedCache(stamp.store, stamp.key);
  return {
    async refresh() {
      // A stamp that could not be read dropped the kept reads: this round reads the store itself.
      await cache.refresh().catch(() => {});
    },
    subscriptions: {
      forProject: (project, kind) =>
        cache.keep(`subscriptions\n${project}\n${kind ?? ''}`, () =>
          reads.subscriptions.forProject(project, kind),
        ),
    },
    campaign: {
      deadlineOf: (channel, project) =>
        cache.keep(`deadline\n${channelKey(channel)}\n${project}`, () =>
          reads.campaign.deadlineOf(channel, project),
        ),
      rollCallOf: (channel) =>
        cache.keep(`roll-call\n${channelKey(channel)}`, () => reads.campaign.rollCallOf(channel)),
    },
  };
}

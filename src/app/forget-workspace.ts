import {
  type ChannelAccessStates,
  type ChannelRef,
  forgetChannelSettings,
  forgetSubscriptionKeysNaming,
  type RewardWatchStore,
  type SubscriptionStore,
} from '../core/index.js';
import { forgetDeliveriesNaming } from '../delivery/index.js';
import { forgetCampaignChecksNaming } from '../digest/index.js';
import { channelKey, workspaceKey } from '../domain/channels.js';
import type { KeyValueStore } from '../lib/store.js';

type Workspace = Pick<ChannelRef, 'platform' | 'workspaceId'>;

/** What {@link forgetWorkspace} removed, by kind (for the log line of the uninstall). */
export type ForgottenData = Record<string, number>;

/**
 * Everything fundbot stores about one workspace, and what an uninstall removes (issues 24 and 30; a Slack
 * uninstall, or fundbot removed from a Discord server: src/adapters/discord/server-removal.ts). After it no key
 * of the store names the workspace (a test scans the whole store, SQLite and Redis):
 *
 * | removed | where (store key) |
 * | --- | --- |
 * | subscriptions and their indexes | `subscriptions/…` through the subscription store (the shared indexes rewritten) |
 * | "now watching" marks | `subscriptions/announced/<project>/<ws>:…` |
 * | language (workspace and channels) | `settings/locale/workspace/<ws>`, `settings/locale/channel/<ws>:…` |
 * | every per-channel setting above and below | through the core's one table of them (core/settings/channel-settings-keys.ts) |
 * | pacing and quiet hours | `settings/pacing/<ws>:…` |
 * | daily-thread setting | `settings/daily-thread/<ws>:…` |
 * | low-stock threshold, pings and filters | `settings/low-stock/<ws>:…`, `settings/notice-rules/<ws>:…` |
 * | campaign end and roll-call settings, pace verdicts and roll-call cursors | `settings/deadline/<ws>:…`, `settings/roll-call/<ws>:…`, `campaign/…` keys naming one of its channels |
 * | reward watches (user ids, reward ids) and direct-message marks | `settings/reward-watch/<ws>`, its entry in `settings/reward-watch-workspaces`; `deliveries/dm/…` |
 * | "cannot post here" marks | `settings/access/<ws>:…` and their index entries |
 * | delivery records, doubt looks, pacing markers, held batches, daily-thread parents, corrections | every `deliveries/…` key naming one of its channels |
 * | connected projects, their sealed keys and (once no replica can write it) their engine state | `hosted/…`, `engine/engine/<project>/…`, by the caller |
 * | the installation (bot token) | `slack/installations/…`, by the Slack adapter |
 *
 * Delivery records used to be kept so a reinstall within their 14 days would not announce a supporter twice:
 * a reinstall starts from its own subscriptions, so nothing old is offered to it again. Once-only claims on
 * Redis (`fundbot:claim:…`, 30 s) expire by themselves. The engine's state of an operator-configured project
 * is not the workspace's and stays.
 *
 * Cost: the subscription store's reads and writes per subscription, then one prefix scan of the settings and
 * one of the deliveries (rare: an uninstall).
 */
export async function forgetWorkspace(deps: {
  readonly settingsStore: KeyValueStore;
  readonly deliveriesStore: KeyValueStore;
  readonly subscriptions: Pick<SubscriptionStore, 'removeWorkspace'>;
  readonly access: ChannelAccessStates;
  /** The members' reward watches (`settings/reward-watch/<ws>` and its entry in the list of workspaces). */
  readonly rewardWatches?: Pick<RewardWatchStore, 'removeWorkspace'>;
  readonly workspace: Workspace;
}): Promise<ForgottenData> {
  const { settingsStore: store, workspace } = deps;
  // Every channel key of the workspace starts with this (channelKey = platform:workspace:channel); some keys
  // carry it URI-encoded once more.
  const channels = `${workspaceKey(workspace)}:`;
  const named = [channels, encodeURIComponent(channels)];
  const subscriptions = await deps.subscriptions.removeWorkspace(workspace);
  const settings = await forgetChannelSettings(store, workspace);
  const { language, pacing, dailyThread, lowStock, noticeRules } = settings;
  const campaign = settings.deadline + settings.rollCall + (await forgetCampaignChecksNaming(store, named));
  let access = 0;
  for (const { channel } of await deps.access.list()) {
    if (!channelKey(channel).startsWith(channels)) continue;
    await deps.access.markCanPost(channel);
    access += 1;
  }
  // What is keyed by project or event first (the "now watching" marks, every delivery record of its channels).
  const marks = await forgetSubscriptionKeysNaming(store, named);
  const deliveries = await forgetDeliveriesNaming(deps.deliveriesStore, named);
  const rewardWatches = (await deps.rewardWatches?.removeWorkspace(workspace)) ?? 0;
  return {
    subscriptions,
    language,
    pacing,
    dailyThread,
    lowStock,
    noticeRules,
    campaign,
    access,
    marks,
    deliveries,
    rewardWatches,
  };
}

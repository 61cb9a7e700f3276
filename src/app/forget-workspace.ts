import {
  type ChannelAccessStates,
  type ChannelRef,
  channelKey,
  type SubscriptionStore,
  workspaceKey,
} from '../core/index.js';
import type { KeyValueStore } from '../lib/store.js';

type Workspace = Pick<ChannelRef, 'platform' | 'workspaceId'>;

/** What {@link forgetWorkspace} removed, by kind (for the log line of the uninstall). */
export type ForgottenData = Record<string, number>;

/**
 * Everything fundbot stores about one workspace, in one table, and what an uninstall removes (issue 24; a Slack
 * uninstall, or fundbot removed from a Discord server: src/adapters/discord/server-removal.ts):
 *
 * | removed | where (store key) |
 * | --- | --- |
 * | subscriptions and their indexes | `subscriptions/…` through the subscription store |
 * | language (workspace and channels) | `settings/locale/workspace/<ws>`, `settings/locale/channel/<ws>:…` |
 * | pacing and quiet hours | `settings/pacing/<ws>:…` |
 * | daily-thread setting | `settings/daily-thread/<ws>:…` |
 * | "cannot post here" marks | `settings/access/<ws>:…` and their index entries |
 * | pacing markers (recent notices) | `deliveries/pacing/recent/<ws>:…` |
 * | connected projects and their sealed keys | `hosted/…`, by the caller (it also stops their polling) |
 * | the installation (bot token) | `slack/installations/…`, by the Slack adapter |
 *
 * **Kept, on purpose**: delivery records (`deliveries/<id>/<channel>`, 14-day TTL) and the pacing records
 * keyed by project first (held batches, daily-thread parents, corrections; each with a TTL of days): they
 * hold ids and message timestamps, no user text and no credential, expire by themselves, and a reinstall
 * within their life must not announce the same supporter twice. Replay and install-state marks expire in
 * minutes. The engine's state of an operator-configured project is not the workspace's and stays.
 */
export async function forgetWorkspace(deps: {
  readonly settingsStore: KeyValueStore;
  readonly deliveriesStore: KeyValueStore;
  readonly subscriptions: Pick<SubscriptionStore, 'removeWorkspace'>;
  readonly access: ChannelAccessStates;
  readonly workspace: Workspace;
}): Promise<ForgottenData> {
  const { settingsStore: store, workspace } = deps;
  // Every channel key of the workspace starts with this (channelKey = platform:workspace:channel).
  const channels = `${workspaceKey(workspace)}:`;
  const subscriptions = await deps.subscriptions.removeWorkspace(workspace);
  const language =
    (await store.deletePrefix(`settings/locale/channel/${channels}`)) +
    ((await store.delete(`settings/locale/workspace/${workspaceKey(workspace)}`)) ? 1 : 0);
  const pacing = await store.deletePrefix(`settings/pacing/${channels}`);
  const dailyThread = await store.deletePrefix(`settings/daily-thread/${channels}`);
  let access = 0;
  for (const { channel } of await deps.access.list()) {
    if (!channelKey(channel).startsWith(channels)) continue;
    await deps.access.markCanPost(channel);
    access += 1;
  }
  const markers = await deps.deliveriesStore.deletePrefix(`pacing/recent/${channels}`);
  return { subscriptions, language, pacing, dailyThread, access, markers };
}

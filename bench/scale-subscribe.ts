/**
 * The scale benches' bot starts as a bot restarted in production does: its store already holds its teams'
 * subscriptions, each project's own Slack channel (`C<i>`) subscribed to every kind of notice, written before
 * the start through the same subscription store the bot's `/fundbot subscribe` uses (src/core). The delivery
 * pipeline then has a channel for every project's notices from the first supporter on.
 *
 * (Subscribing through 1,000 signed commands while the bot made its first polls took 2-3 minutes on the shared
 * machine, every one serialized on the workspace's channel list: a cost of the set-up, not of the steady run.)
 */
import { settingsStampKey } from '../src/app/wire-fundbot.js';
import { createSubscriptionStore } from '../src/core/index.js';
import { noticeKinds } from '../src/domain/events.js';
import { withChangeStamp } from '../src/lib/change-stamp.js';
import { systemClock } from '../src/lib/clock.js';
import { openStore } from '../src/lib/store.js';

export const scaleAdminUserId = 'U0SCALEADMIN';
export const scaleWorkspaceId = 'T0FAKE';

/** Slack channel of `project-<i>`. */
export const scaleChannelOf = (i: number) => `C${String(i).padStart(6, '0')}`;

export async function seedSubscriptions(storeUrl: string, projects: number): Promise<void> {
  const store = await openStore(storeUrl);
  try {
    let stamps = 0;
    const subscriptions = createSubscriptionStore(
      withChangeStamp(store, settingsStampKey, () => `bench-${(stamps++).toString(36)}`),
      { clock: systemClock },
    );
    for (let i = 0; i < projects; i++) {
      await subscriptions.subscribe(
        { platform: 'slack', workspaceId: scaleWorkspaceId, channelId: scaleChannelOf(i) },
        `project-${i}`,
        [...noticeKinds],
        scaleAdminUserId,
      );
    }
  } finally {
    await store.close();
  }
}

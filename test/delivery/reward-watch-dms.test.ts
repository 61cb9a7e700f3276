import { describe, expect, test } from 'vitest';
import { createRewardWatchStore } from '../../src/core/settings/reward-watch-store.js';
import {
  createRewardWatchDms,
  DirectMessageRefusedError,
  type DirectMessenger,
} from '../../src/delivery/index.js';
import type { ChannelRef } from '../../src/domain/channels.js';
import type { RewardRestockedEvent } from '../../src/domain/events.js';
import { silentLogger } from '../../src/domain/logger.js';
import { type KeyValueStore, memoryStore, namespaced } from '../../src/lib/store.js';

const slack = { platform: 'slack', workspaceId: 'T1' } as const;
const discord = { platform: 'discord', workspaceId: 'G1' } as const;

const restock = (id: string, rewardId = 301): RewardRestockedEvent => ({
  type: 'reward-restocked',
  id,
  project: 'kiosk',
  occurredAt: 0,
  detectedAt: 0,
  rewardId,
  title: 'Kiosk kit',
  price: 80,
  currency: 'EUR',
  remaining: 1,
});

/** A platform's DM as the port sees it: records what went to whom; `answer` decides each send. */
function recordingMessenger(
  platform: ChannelRef['platform'],
  answer: (user: string) => Error | undefined = () => undefined,
) {
  const sent: { workspaceId: string; userId: string; text: string | undefined }[] = [];
  const messenger: DirectMessenger = {
    platform,
    async sendDirect(workspace, userId, message) {
      const error = answer(userId);
      if (error) throw error;
      sent.push({ workspaceId: workspace.workspaceId, userId, text: message.text });
    },
  };
  return { messenger, sent };
}

function setup(store: KeyValueStore = memoryStore()) {
  const watches = createRewardWatchStore(store);
  const warnings: string[] = [];
  const logger = {
    ...silentLogger,
    warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)),
    child: () => logger,
  };
  const dms = createRewardWatchDms({
    watches,
    store: namespaced(store, 'deliveries/'),
    render: async (event, channel) => ({ text: `${event.title} (asked in ${channel.channelId})` }),
    logger,
  });
  return { store, watches, dms, warnings };
}

const watch = (userId: string, rewardId = 301) => ({ userId, channelId: 'C1', project: 'kiosk', rewardId });

describe('reward watch direct messages', () => {
  test('each watcher gets one message on the restock, the watch ends; the same event again and a second restock send none', async () => {
    const { watches, dms } = setup();
    await watches.add(slack, watch('U1'));
    await watches.add(slack, watch('U2'));
    await watches.add(slack, watch('U3', 999));
    await watches.add(discord, watch('111'));
    const onSlack = recordingMessenger('slack');
    const onDiscord = recordingMessenger('discord');
    dms.register(onSlack.messenger.platform, onSlack.messenger);
    dms.register(onDiscord.messenger.platform, onDiscord.messenger);
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set());
    expect(onSlack.sent).toEqual([
      { workspaceId: 'T1', userId: 'U1', text: 'Kiosk kit (asked in C1)' },
      { workspaceId: 'T1', userId: 'U2', text: 'Kiosk kit (asked in C1)' },
    ]);
    expect(onDiscord.sent.map((s) => s.userId)).toEqual(['111']);
    expect(await watches.watchersOf('kiosk', 301)).toEqual([]);
    // Only the other reward's watch is left.
    expect((await watches.ofUser(slack, 'U3')).map((w) => w.rewardId)).toEqual([999]);
    await dms.deliver('kiosk', [restock('r1')]);
    await dms.deliver('kiosk', [restock('r2')]);
    expect(onSlack.sent).toHaveLength(2);
    expect(onDiscord.sent).toHaveLength(1);
  });

  test('two replicas offered the same restock at once send each member one message', async () => {
    const shared = memoryStore();
    const a = setup(shared);
    const b = setup(shared);
    await a.watches.add(slack, watch('U1'));
    await a.watches.add(slack, watch('U2'));
    const onA = recordingMessenger('slack');
    const onB = recordingMessenger('slack');
    a.dms.register(onA.messenger.platform, onA.messenger);
    b.dms.register(onB.messenger.platform, onB.messenger);
    const [pendingA, pendingB] = await Promise.all([
      a.dms.deliver('kiosk', [restock('r1')]),
      b.dms.deliver('kiosk', [restock('r1')]),
    ]);
    // Whichever replica lost a claim keeps the event for the next run, which finds the message sent.
    for (const pending of [pendingA, pendingB])
      if (pending.size > 0) await a.dms.deliver('kiosk', [restock('r1')]);
    const all = [...onA.sent, ...onB.sent].map((s) => s.userId).sort();
    expect(all).toEqual(['U1', 'U2']);
    expect(await a.watches.watchersOf('kiosk', 301)).toEqual([]);
  });

  test('a member who cannot be written to loses the watch with one log line; a passing failure keeps the event and the watch', async () => {
    const { watches, dms, warnings } = setup();
    await watches.add(discord, watch('111'));
    await watches.add(discord, watch('222'));
    let outage = true;
    const onDiscord = recordingMessenger('discord', (user) => {
      if (user === '111') return new DirectMessageRefusedError('discord 50007');
      return outage ? new Error('socket hang up') : undefined;
    });
    dms.register(onDiscord.messenger.platform, onDiscord.messenger);
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set(['r1']));
    expect(warnings).toEqual([
      'reward watch: the member cannot be sent a direct message, watch dropped',
      'reward watch: direct message not sent, tried again at the next run',
    ]);
    expect((await watches.watchersOf('kiosk', 301)).map((w) => w.userId)).toEqual(['222']);
    outage = false;
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set());
    expect(onDiscord.sent.map((s) => s.userId)).toEqual(['222']);
    // The refused member is not tried again: no new warning, no send.
    expect(warnings).toHaveLength(2);
    expect(await watches.watchersOf('kiosk', 301)).toEqual([]);
  });

  test('a platform whose adapter is not registered yet keeps the event; /unwatch before the restock sends nothing', async () => {
    const { watches, dms } = setup();
    await watches.add(slack, watch('U1'));
    await watches.add(slack, watch('U2'));
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set(['r1']));
    await watches.remove(slack, watch('U2'));
    const onSlack = recordingMessenger('slack');
    dms.register(onSlack.messenger.platform, onSlack.messenger);
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set());
    expect(onSlack.sent.map((s) => s.userId)).toEqual(['U1']);
  });

  test('a platform mode without direct messages (Slack OAuth, the console) drops its watches with a log line, never holds the event', async () => {
    const { watches, dms, warnings } = setup();
    await watches.add(slack, watch('U1'));
    dms.register('slack', undefined);
    expect(await dms.deliver('kiosk', [restock('r1')])).toEqual(new Set());
    expect(warnings).toEqual(['reward watch: this platform mode sends no direct messages, watch dropped']);
    expect(await watches.watchersOf('kiosk', 301)).toEqual([]);
  });
});

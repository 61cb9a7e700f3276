import { afterEach, describe, expect, it } from 'vitest';
import {
  connectReplicaCoordination,
  type ReplicaCoordination,
} from '../../../src/app/replica-coordination.js';
import { type ChannelRef, createSubscriptionStore } from '../../../src/core/index.js';
import { createNoticeRouter, NoticeDeliveryError } from '../../../src/delivery/index.js';
import { systemClock } from '../../../src/lib/clock.js';
import { namespaced } from '../../../src/lib/store.js';
import { createCoreFixture } from '../../support/core-fixture.js';
import { buildEvent } from '../../support/event-builders.js';
import { RecordingPoster } from '../../support/recording-poster.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';

const channel: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };

describe.skipIf(skipRedisTests())('the delivery claim across replicas, on a real redis-server', () => {
  let server: RedisServer | undefined;
  const replicas: ReplicaCoordination[] = [];

  afterEach(async () => {
    for (const replica of replicas.splice(0)) await replica.store.close().catch(() => {});
    await server?.stop();
  });

  it('two routers on one Redis delivering the same event at once post it exactly once', async () => {
    server = await startRedisServer();
    const fixture = createCoreFixture();
    // One channel, as Discord would show it: every post from either replica lands here.
    const discord = new RecordingPoster('discord');
    const routerOf = async (id: string) => {
      const replica = await connectReplicaCoordination({
        url: server!.url,
        replicaId: id,
        clock: systemClock,
        projects: () => [],
        ttlMs: 30_000,
        onError: () => {},
      });
      replicas.push(replica);
      const subscriptions = createSubscriptionStore(replica.store, { clock: fixture.clock });
      const router = createNoticeRouter({
        core: fixture.core,
        subscriptions,
        posters: [discord],
        store: namespaced(replica.store, 'deliveries/'),
        claims: replica.claims,
        clock: fixture.clock,
      });
      return { router, subscriptions };
    };
    const a = await routerOf('replica-a');
    const b = await routerOf('replica-b');
    await a.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters'], 'U');

    const event = buildEvent.supporter();
    const outcomes = await Promise.allSettled([a.router.deliver(event), b.router.deliver(event)]);
    expect(discord.posts).toHaveLength(1);
    // The loser was told to retry (its outbox keeps the event); the retry finds the record and posts nothing.
    const lost = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
    expect(lost).toHaveLength(1);
    expect((outcomes[lost[0]!] as PromiseRejectedResult).reason).toBeInstanceOf(NoticeDeliveryError);
    await [a, b][lost[0]!]!.router.deliver(event);
    expect(discord.posts).toHaveLength(1);
  });
});

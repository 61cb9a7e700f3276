/**
 * The delivery claim across replicas on a real redis-server: two delivery pipelines on
 * one Redis (its store and its claims, as replicas run them) offered the same events at
 * once, as two replicas do while a project's lease changes hands, post each notice once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplicaCoordination } from '../../../src/app/replica-coordination.js';
import type { ChannelRef } from '../../../src/core/index.js';
import { type PipelineHarness, startPipeline } from '../../delivery/pipeline-harness.js';
import { ScriptedPoster } from '../../delivery/scripted-poster.js';
import { t0 } from '../../support/builders.js';
import { buildEvent } from '../../support/event-builders.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';
import { connectTestReplica } from '../../support/test-replica.js';

const channel: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };

describe.skipIf(skipRedisTests())('the delivery claim across replicas, on a real redis-server', () => {
  let server: RedisServer | undefined;
  const replicas: ReplicaCoordination[] = [];
  const pipelines: PipelineHarness[] = [];

  afterEach(async () => {
    for (const pipeline of pipelines.splice(0)) await pipeline.stop();
    for (const replica of replicas.splice(0)) await replica.store.close().catch(() => {});
    await server?.stop();
  });

  it('two pipelines on one Redis offered the same events at once post each notice exactly once', async () => {
    server = await startRedisServer();
    const clock = new ManualClock(t0);
    // One channel, as Discord would show it: every post from either replica lands here.
    const discord = new ScriptedPoster('discord', clock);
    const replicaOf = async (id: string) => {
      const replica = await connectTestReplica(server!.url, id);
      replicas.push(replica);
      const pipeline = await startPipeline({
        posters: [discord],
        store: replica.store,
        claims: replica.claims,
        clock,
      });
      pipelines.push(pipeline);
      return pipeline;
    };
    const a = await replicaOf('replica-a');
    const b = await replicaOf('replica-b');
    await a.subscribe(channel, ['supporters']);
    await a.pacing.setKind(channel, 'supporters', { mode: 'live' });

    const events = Array.from({ length: 12 }, (_, i) =>
      buildEvent.supporter({ id: `s${i + 1}`, displayName: `Fan ${i + 1}` }),
    );
    await Promise.all([
      a.delivery.sink.offer('solar-kiosk', events),
      b.delivery.sink.offer('solar-kiosk', events),
    ]);
    await Promise.all([a.settle(), b.settle()]);
    // The loser of a claim reads the winner's record a few seconds later: posted, nothing to do.
    for (let i = 0; i < 3; i += 1) {
      clock.advance(5_000);
      await Promise.all([a.settle(), b.settle()]);
    }
    const ids = events.map((e) => e.id);
    expect(discord.messages.map((m) => m.key.split('@')[0]).sort()).toEqual([...ids].sort());
    // Both outboxes are told every event is done.
    expect([...(await a.offer(...events))].sort()).toEqual([...ids].sort());
    expect([...(await b.offer(...events))].sort()).toEqual([...ids].sort());
    expect(discord.messages).toHaveLength(events.length);
  });
});

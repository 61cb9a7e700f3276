import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const minute = 60_000;
const supporter = (n: number) =>
  buildEvent.supporter({ id: `solar-kiosk:supporter:k${n}`, displayName: `Fan ${n}` });

/** One replica: the store and the claims (Redis in production) are the fleet's. */
async function replica(
  clock: ManualClock,
  store: ReturnType<typeof memoryStore>,
  owner: string,
  table: Parameters<typeof memoryClaims>[2],
) {
  const discord = new ScriptedPoster('discord', clock);
  const h = await startPipeline({
    posters: [discord],
    clock,
    store,
    claims: memoryClaims(clock, owner, table),
  });
  return { ...h, discord };
}

/** One store and lease table for two replicas; replica a holds the project, its channel batched. */
async function batchedReplicaA() {
  const clock = new ManualClock(t0);
  const store = memoryStore();
  const table = new Map();
  const a = await replica(clock, store, 'a', table);
  await a.subscribe(d1, ['supporters']);
  await a.pacing.setKind(d1, 'supporters', { mode: 'batched' });
  return { clock, store, table, a };
}

describe('a project taken over by another replica', () => {
  it("posts the batches the previous holder opened after this replica last read the project's batches", async () => {
    // Chaos seed 122: replica 0 read the project's (empty) batches, then was paused; replica 1 held the project
    // and opened a batch; replica 0 took the lease back but kept its old empty list: the batch was never armed
    // there, and when replica 1 died its notices were never named (here the new holder stops before the window ends, so the old copy's timer is the one
    // that posts).
    const { clock, store, table, a } = await batchedReplicaA();
    await a.offer();
    const b = await replica(clock, store, 'b', table);
    await b.offer(supporter(1), supporter(2));
    await b.advance(5_000);
    await b.stop();
    // a takes the project over: the engine's first offer after loading it says so.
    await a.delivery.sink.offer('solar-kiosk', [], true);
    await a.advance(15 * minute);
    expect(a.discord.messages).toHaveLength(1);
    const text = allText(a.discord.messages[0]!.message);
    for (const name of ['Fan 1', 'Fan 2']) expect(text).toContain(name);
  });

  it('a replica that lost the project posts the batch as stored, with the notices the new holder added', async () => {
    // Chaos seed 185: replica 0 opened the window's batch, was paused; replica 1 took the project over and added
    // four notices; replica 0's timer posted its own copy at the window's end and closed the batch: those four
    // were never named.
    const { clock, store, table, a } = await batchedReplicaA();
    await a.offer(supporter(1), supporter(2));
    await a.advance(5_000);
    const b = await replica(clock, store, 'b', table);
    await b.offer(supporter(3), supporter(4));
    await b.advance(5_000);
    // The new holder stops before the window ends: the old one's timer posts the batch.
    await b.stop();
    await a.advance(15 * minute);
    expect(a.discord.messages).toHaveLength(1);
    const text = allText(a.discord.messages[0]!.message);
    for (const name of ['Fan 1', 'Fan 2', 'Fan 3', 'Fan 4']) expect(text).toContain(name);
  });
});

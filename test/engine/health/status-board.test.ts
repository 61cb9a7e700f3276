/**
 * Issue 30, status from the fleet: what /status and the overview show of a project is the same whichever
 * replica answers, because the poller shares it through the store; and it costs a write only when a reader
 * would see something new (none on a quiet project).
 */
import { describe, expect, it } from 'vitest';
import { memoryLease } from '../../../src/engine/index.js';
import { type KeyValueStore, memoryStore } from '../../../src/lib/store.js';
import { lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

/** The store, with every write of a project status recorded (its size as JSON). */
function statusWatchingStore(inner: KeyValueStore, writes: number[]): KeyValueStore {
  return {
    ...inner,
    async set(key, value, ttlMs) {
      if (key.endsWith('/status')) writes.push(Buffer.byteLength(JSON.stringify(value)));
      return inner.set(key, value, ttlMs);
    },
    close: () => inner.close(),
  };
}

describe('the shared project status', () => {
  it('every replica shows what the poller shows: poll times, a switched-off feed, a paused key', async () => {
    const writes: number[] = [];
    const h = await startHarness({
      project: { supporters: [] },
      store: statusWatchingStore(memoryStore(), writes),
      scopes: ['project:read', 'incentives:read', 'fundings:read', 'blog:read'],
    });
    const lease = memoryLease(h.clock);
    await h.engine.stop();
    const poller = h.newEngine({ lease, replicaId: 'poller' });
    const other = h.newEngine({ lease, replicaId: 'other' });
    await lease.acquire(lc, 'poller', 30_000);

    await poller.runDue();
    const shared = await other.readModel.status(lc);
    expect(await poller.readModel.status(lc)).toEqual(shared);
    expect(shared.feeds.find((f) => f.feed === 'fundings')?.lastSuccessAt).not.toBeNull();
    expect(shared.feeds.find((f) => f.feed === 'wall')?.disabledReason).toMatchObject({
      code: 'scope-missing',
    });
    expect(shared.reportedEveryMs).toBe(15 * 60_000);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBeLessThan(1_500);

    // A quiet hour: polls go on, the status is not written again; its poll times follow the state head.
    const idleFrom = h.clock.now();
    const writesBefore = writes.length;
    const firstFundings = shared.feeds.find((f) => f.feed === 'fundings')?.lastSuccessAt ?? 0;
    for (const end = idleFrom + 60 * 60_000; h.clock.now() < end; ) {
      h.clock.set(Math.min(poller.nextDueAt(), end));
      await poller.runDue();
    }
    // The switched-off wall is re-checked meanwhile, still refused: nothing new for a reader.
    expect(writes.length - writesBefore).toBe(0);
    const later = await other.readModel.status(lc);
    expect(later.feeds.find((f) => f.feed === 'fundings')?.lastSuccessAt).toBeGreaterThan(firstFundings);
    expect(h.clock.now() - (later.feeds.find((f) => f.feed === 'fundings')?.lastSuccessAt ?? 0)).toBeLessThan(
      15 * 60_000 + 60_000,
    );

    // The key is revoked: the poller pauses, and the other replica says so too.
    h.sim.revokeKey(h.rawKey);
    await runFor(h, 60_000, poller);
    const paused = await other.readModel.status(lc);
    expect(paused.paused?.reason).toMatchObject({ code: 'key-rejected' });
    expect(await poller.readModel.status(lc)).toEqual(paused);
    await poller.stop();
    await other.stop();
  });

  it('a replica that never polled the project shows what the poller stored', async () => {
    const h = await startHarness({ project: { supporters: [] } });
    await step(h);
    const other = h.newEngine({ lease: memoryLease(h.clock), replicaId: 'other' });
    const status = await other.readModel.status(lc);
    expect(status.feeds.every((f) => f.lastSuccessAt !== null)).toBe(true);
    await other.stop();
  });
});

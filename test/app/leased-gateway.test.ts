import { describe, expect, it } from 'vitest';
import { type GatewaySession, leasedGateway } from '../../src/app/leased-gateway.js';
import { systemClock } from '../../src/lib/clock.js';
import { type Lease, memoryLease } from '../../src/lib/coordination/lease.js';
import { recordingLogger } from '../support/recording-logger.js';
import { waitUntil } from '../support/wait-until.js';

/** A replica's view of the shared lease that can lose its connection (Redis unreachable from this replica). */
function severable(lease: Lease): Lease & { sever(): void } {
  let severed = false;
  const guard = () => {
    if (severed) throw new Error('connection to Redis lost');
  };
  return {
    sever: () => {
      severed = true;
    },
    acquire: async (...args) => {
      guard();
      return lease.acquire(...args);
    },
    release: async (...args) => {
      guard();
      return lease.release(...args);
    },
    fencedSetAll: async (...args) => {
      guard();
      return lease.fencedSetAll(...args);
    },
    holders: async (...args) => {
      guard();
      return lease.holders(...args);
    },
    renewAll: async (...args) => {
      guard();
      return lease.renewAll(...args);
    },
    revoke: async (...args) => {
      guard();
      return lease.revoke(...args);
    },
  };
}

describe('the gateway lease', () => {
  it('a holder that cannot renew closes its session before the lease expires; the standby then connects, never both at once', async () => {
    const shared = memoryLease(systemClock);
    const ttlMs = 3_000;
    const open = new Set<string>();
    let overlap = false;
    const replica = (name: string, lease: Lease) =>
      leasedGateway({
        lease,
        holder: name,
        ttlMs,
        clock: systemClock,
        logger: recordingLogger(),
        async connect(): Promise<GatewaySession> {
          open.add(name);
          if (open.size > 1) overlap = true;
          return { stop: async () => void open.delete(name) };
        },
      });
    const aLease = severable(shared);
    const a = replica('a', aLease);
    const b = replica('b', shared);
    await a.start();
    await b.start();
    expect([a.connected(), b.connected()]).toEqual([true, false]);

    const severedAt = Date.now();
    aLease.sever();
    await waitUntil('the holder to close its session', () => !a.connected(), {
      timeoutMs: 10_000,
      everyMs: 10,
    });
    // It closed on its own, before its lease could expire in the shared store.
    expect(Date.now() - severedAt).toBeLessThan(ttlMs);
    await waitUntil('the standby to take over', () => b.connected(), { timeoutMs: 10_000, everyMs: 10 });
    expect(Date.now() - severedAt).toBeLessThan(ttlMs + ttlMs / 10 + 1_000);
    expect(overlap).toBe(false);

    await a.stop();
    await b.stop();
    expect(open.size).toBe(0);
    // b gave the lease back on stop: a fresh replica gets it at once.
    expect(await shared.acquire('discord-gateway', 'c', ttlMs)).not.toBeNull();
  }, 20_000);

  it('a login that fails at start fails the start and leaves the lease to the others', async () => {
    const shared = memoryLease(systemClock);
    const failing = leasedGateway({
      lease: shared,
      holder: 'a',
      ttlMs: 3_000,
      clock: systemClock,
      logger: recordingLogger(),
      connect: async () => {
        throw new Error('Discord login failed: check DISCORD_TOKEN');
      },
    });
    await expect(failing.start()).rejects.toThrow(/DISCORD_TOKEN/);
    expect(await shared.acquire('discord-gateway', 'b', 3_000)).not.toBeNull();
  });
});

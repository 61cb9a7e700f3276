import { expect, it, vi } from 'vitest';
import type { Lease } from '../../../src/lib/coordination/lease.js';

/** A lease under test, a way to read what its fenced writes stored, and a way to let a lease's TTL run out. */
export interface LeaseSubject {
  readonly lease: Lease;
  /** The TTL the cases grant: short on a real Redis, whose clock is real. */
  readonly ttlMs: number;
  /** Returns once `resource`'s lease has expired (advances a manual clock, or waits for Redis to drop it). */
  expire(resource: string): Promise<void>;
  read(key: string): Promise<string | undefined>;
}

/** The cases every Lease implementation must pass; `subject` is called in each test (after beforeEach). */
export function leaseContract(subject: () => LeaseSubject): void {
  it('gives a resource to one holder at a time', async () => {
    const { lease, ttlMs } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    expect(a?.token).toBeGreaterThan(0);
    expect(await lease.acquire('p1', 'replica-b', ttlMs)).toBeNull();
    // Another resource is independent.
    expect(await lease.acquire('p2', 'replica-b', ttlMs)).not.toBeNull();
    expect(await lease.holders(['p1', 'p2', 'p3'])).toEqual(
      new Map([
        ['p1', { holder: 'replica-a', token: a!.token }],
        ['p2', { holder: 'replica-b', token: expect.any(Number) }],
      ]),
    );
  });

  it('keeps the token while the same holder renews', async () => {
    const { lease, ttlMs } = subject();
    const first = await lease.acquire('p1', 'replica-a', ttlMs);
    const renewed = await lease.acquire('p1', 'replica-a', ttlMs);
    expect(renewed).toEqual(first);
  });

  it('lets another replica take over with a greater token once the lease expired', async () => {
    const { lease, ttlMs, expire } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    await expire('p1');
    const b = await lease.acquire('p1', 'replica-b', ttlMs);
    expect(b).not.toBeNull();
    expect(b!.token).toBeGreaterThan(a!.token);
    // The old holder's renewal is now refused: it lost the lease.
    expect(await lease.acquire('p1', 'replica-a', ttlMs)).toBeNull();
  });

  it('hands out a greater token after a release, too', async () => {
    const { lease, ttlMs } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    await lease.release('p1', 'replica-b'); // not b's: nothing happens
    expect(await lease.acquire('p1', 'replica-b', ttlMs)).toBeNull();
    await lease.release('p1', 'replica-a');
    const b = await lease.acquire('p1', 'replica-b', ttlMs);
    expect(b!.token).toBeGreaterThan(a!.token);
  });

  it('refuses the commit of a paused replica whose lease expired and was taken', async () => {
    const { lease, ttlMs, expire, read } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    expect(await lease.fencedSetAll('p1', a!.token, [{ key: 'state/p1', value: 'from-a-1' }])).toBe(true);
    // replica-a pauses (GC, a frozen VM) past its TTL; replica-b takes over and commits.
    await expire('p1');
    const b = await lease.acquire('p1', 'replica-b', ttlMs);
    expect(await lease.fencedSetAll('p1', b!.token, [{ key: 'state/p1', value: 'from-b' }])).toBe(true);
    // replica-a wakes up and tries to commit what it computed before the pause.
    expect(await lease.fencedSetAll('p1', a!.token, [{ key: 'state/p1', value: 'from-a-2' }])).toBe(false);
    expect(await read('state/p1')).toBe('from-b');
  });

  it('writes a group of values all together, or none of them for a stale token', async () => {
    const { lease, ttlMs, expire, read } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    const chunkAndHead = (from: string) => [
      { key: 'chunk/p1', value: `chunk-${from}` },
      { key: 'head/p1', value: `head-${from}`, ttlMs: 60_000 },
    ];
    expect(await lease.fencedSetAll('p1', a!.token, chunkAndHead('a'))).toBe(true);
    expect([await read('chunk/p1'), await read('head/p1')]).toEqual(['chunk-a', 'head-a']);
    await expire('p1');
    const b = await lease.acquire('p1', 'replica-b', ttlMs);
    expect(await lease.fencedSetAll('p1', a!.token, chunkAndHead('a-late'))).toBe(false);
    expect([await read('chunk/p1'), await read('head/p1')]).toEqual(['chunk-a', 'head-a']);
    expect(await lease.fencedSetAll('p1', b!.token, chunkAndHead('b'))).toBe(true);
    expect([await read('chunk/p1'), await read('head/p1')]).toEqual(['chunk-b', 'head-b']);
  });

  it('refuses a commit after the lease expired even when nobody took it yet', async () => {
    const { lease, ttlMs, expire, read } = subject();
    const a = await lease.acquire('p1', 'replica-a', ttlMs);
    await expire('p1');
    expect(await lease.fencedSetAll('p1', a!.token, [{ key: 'state/p1', value: 'late' }])).toBe(false);
    expect(await read('state/p1')).toBeUndefined();
  });

  it('gives a contested free resource to exactly one of many concurrent acquirers', async () => {
    const { lease, ttlMs } = subject();
    const grants = await Promise.all(
      Array.from({ length: 20 }, (_, i) => lease.acquire('p1', `replica-${i}`, ttlMs)),
    );
    expect(grants.filter((grant) => grant !== null)).toHaveLength(1);
  });

  it('lets an expired resource be retaken by its old holder with a new token', async () => {
    const { lease, ttlMs, expire } = subject();
    const first = await lease.acquire('p1', 'replica-a', ttlMs);
    await expire('p1');
    const again = await lease.acquire('p1', 'replica-a', ttlMs);
    // A new tenure, so a new token: writes computed in the old tenure are fenced off too.
    expect(again!.token).toBeGreaterThan(first!.token);
    // Redis round trips: vitest's default 1 s is short on a loaded machine.
    await vi.waitFor(async () => expect((await lease.holders(['p1'])).get('p1')?.holder).toBe('replica-a'), {
      timeout: 10_000,
    });
  });

  it('renews in one call every lease its holder still has, and names none it lost', async () => {
    const { lease, ttlMs, expire } = subject();
    const a1 = await lease.acquire('p1', 'replica-a', ttlMs);
    const a2 = await lease.acquire('p2', 'replica-a', ttlMs);
    await lease.acquire('p3', 'replica-b', ttlMs);
    expect(await lease.renewAll(['p1', 'p2', 'p3', 'p4'], 'replica-a', ttlMs)).toEqual(
      new Map([
        ['p1', a1!.token],
        ['p2', a2!.token],
      ]),
    );
    // Not an acquire: a free resource stays free, an expired one is not renewed.
    expect((await lease.holders(['p4'])).has('p4')).toBe(false);
    await expire('p1');
    expect((await lease.renewAll(['p1'], 'replica-a', ttlMs)).has('p1')).toBe(false);
  });

  it('revokes the leases of dead holders: the others acquire them at once with greater tokens, the old token writes nothing', async () => {
    const { lease, ttlMs, read } = subject();
    const dead = await lease.acquire('p1', 'replica-dead', ttlMs);
    await lease.acquire('p2', 'replica-live', ttlMs);
    expect(await lease.revoke(['replica-dead'], ['p1', 'p2', 'p3'])).toEqual(
      new Map([['p1', 'replica-dead']]),
    );
    expect([...(await lease.holders(['p1', 'p2'])).keys()]).toEqual(['p2']);
    // The replica thought dead was only reconnecting: its commit with the old token is refused, before and
    // after another replica took the project.
    expect(await lease.fencedSetAll('p1', dead!.token, [{ key: 'state/p1', value: 'late' }])).toBe(false);
    const successor = await lease.acquire('p1', 'replica-live', ttlMs);
    expect(successor!.token).toBeGreaterThan(dead!.token);
    expect(await lease.fencedSetAll('p1', dead!.token, [{ key: 'state/p1', value: 'late' }])).toBe(false);
    expect(await read('state/p1')).toBeUndefined();
    expect(await lease.renewAll(['p1'], 'replica-dead', ttlMs)).toEqual(new Map());
  });
}

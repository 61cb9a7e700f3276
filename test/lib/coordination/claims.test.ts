import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ClaimEntry,
  type Claims,
  memoryClaims,
  storeClaims,
} from '../../../src/lib/coordination/claims.js';
import { redisClaims } from '../../../src/lib/coordination/redis-claims.js';
import { connectRedis, type RedisClient } from '../../../src/lib/coordination/redis-client.js';
import { type KeyValueStore, memoryStore } from '../../../src/lib/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';

interface ClaimsSubject {
  /** The claims of replica number `index` (all share one table / one Redis). */
  replica(index: number): Claims;
  readonly ttlMs: number;
  /** Returns once `key`'s claim has expired. */
  expire(key: string): Promise<void>;
}

function claimsContract(subject: () => ClaimsSubject): void {
  it('lets exactly one of two concurrent claimers deliver (event, channel)', async () => {
    const { replica, ttlMs } = subject();
    const key = 'delivery/evt-42/discord:G1:C1';
    const won = await Promise.all([replica(0).claimOnce(key, ttlMs), replica(1).claimOnce(key, ttlMs)]);
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('lets exactly one of many replicas send the digest of (project, channel, day)', async () => {
    const { replica, ttlMs } = subject();
    const key = 'digest/solar-kiosk/slack:T1:C9/2026-03-02';
    const won = await Promise.all(Array.from({ length: 12 }, (_, i) => replica(i).claimOnce(key, ttlMs)));
    expect(won.filter(Boolean)).toHaveLength(1);
    // The next day is a new claim.
    expect(await replica(3).claimOnce('digest/solar-kiosk/slack:T1:C9/2026-03-03', ttlMs)).toBe(true);
  });

  it('refuses the same owner twice: a claim is once, not once per replica', async () => {
    const { replica, ttlMs } = subject();
    expect(await replica(0).claimOnce('k', ttlMs)).toBe(true);
    expect(await replica(0).claimOnce('k', ttlMs)).toBe(false);
  });

  it('frees a claim whose owner died once it expires', async () => {
    const { replica, ttlMs, expire } = subject();
    expect(await replica(0).claimOnce('k', ttlMs)).toBe(true);
    await expire('k');
    expect(await replica(1).claimOnce('k', ttlMs)).toBe(true);
  });

  it('gives a claim back only for its owner', async () => {
    const { replica, ttlMs } = subject();
    expect(await replica(0).claimOnce('k', ttlMs)).toBe(true);
    await replica(1).giveBack('k');
    expect(await replica(1).claimOnce('k', ttlMs)).toBe(false);
    await replica(0).giveBack('k');
    expect(await replica(1).claimOnce('k', ttlMs)).toBe(true);
  });
}

describe('memoryClaims', () => {
  let subject: ClaimsSubject;
  beforeEach(() => {
    const clock = new ManualClock();
    const table = new Map<string, ClaimEntry>();
    subject = {
      replica: (index) => memoryClaims(clock, `replica-${index}`, table),
      ttlMs: 60_000,
      expire: async () => clock.advance(60_000),
    };
  });
  claimsContract(() => subject);
});

describe('storeClaims (one process, claims in its store)', () => {
  let subject: ClaimsSubject;
  let clock: ManualClock;
  let store: KeyValueStore;
  beforeEach(() => {
    clock = new ManualClock();
    store = memoryStore();
    subject = {
      replica: (index) => storeClaims(store, clock, `owner-${index}`),
      ttlMs: 60_000,
      expire: async () => clock.advance(60_000),
    };
  });
  claimsContract(() => subject);

  it('a claim outlives a restart: new claims on the same store still refuse it', async () => {
    const key = 'discord/interaction/1575225645967867907';
    expect(await storeClaims(store, clock, 'before').claimOnce(key, 60_000)).toBe(true);
    expect(await storeClaims(store, clock, 'after').claimOnce(key, 60_000)).toBe(false);
  });
});

describe.skipIf(skipRedisTests())('redisClaims on a real redis-server', () => {
  let server: RedisServer;
  let clients: RedisClient[];
  let subject: ClaimsSubject;

  beforeAll(async () => {
    server = await startRedisServer();
    // Two connections, as two replicas would have: concurrency is decided by the server, not one socket's order.
    clients = await Promise.all([0, 1].map(() => connectRedis(server.url, () => {})));
  });
  afterAll(async () => {
    for (const client of clients ?? []) client.destroy();
    await server?.stop();
  });
  beforeEach(async () => {
    await clients[0]!.flushAll();
    subject = {
      replica: (index) => redisClaims(clients[index % 2]!, `replica-${index}`),
      // Long: a 150 ms claim could run out between two round trips of one test on a loaded machine (then the
      // owner's second claim or a give-back saw no claim). Expiry is Redis's own, brought forward to 1 ms.
      ttlMs: 60_000,
      expire: async (key) => {
        await clients[0]!.pExpire(`fundbot:claim:${key}`, 1);
        await vi.waitFor(async () => expect(await clients[0]!.exists(`fundbot:claim:${key}`)).toBe(0), {
          timeout: 5_000,
          interval: 20,
        });
      },
    };
  });
  claimsContract(() => subject);
});

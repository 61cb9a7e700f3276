import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../src/lib/coordination/redis-lease.js';
import { openStore } from '../../src/lib/store.js';
import { type RedisServer, redisUnavailableReason, startRedisServer } from '../support/redis-server.js';

const unavailable = redisUnavailableReason();
if (unavailable !== undefined) console.warn(`skipping the Redis pipelining test: ${unavailable}`);

/**
 * A TCP relay between the client and a real redis-server that records each chunk the client
 * sent: writes issued in one tick that reach Redis in one chunk were pipelined (one round trip).
 */
async function recordingRelay(port: number): Promise<{ url: string; chunks: string[]; close(): void }> {
  const chunks: string[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.push(client, upstream);
    client.on('data', (data: Buffer) => {
      chunks.push(data.toString('latin1'));
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => client.write(data));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayPort = (server.address() as AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${relayPort}`,
    chunks,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

let redis: RedisServer | undefined;
afterEach(async () => {
  await redis?.stop();
  redis = undefined;
});

/** A fresh redis-server, a recording relay in front of it, and a lease on a client that talks through the relay. */
async function relayedLease() {
  redis = await startRedisServer();
  const relay = await recordingRelay(redis.port);
  const client = await connectRedis(relay.url, () => {});
  return { relay, client, lease: redisLease(client) };
}

describe.skipIf(unavailable !== undefined)(
  'writes to Redis issued together are pipelined (real redis-server)',
  () => {
    it('the sets of one tick through the store reach Redis in one chunk', async () => {
      redis = await startRedisServer();
      const relay = await recordingRelay(redis.port);
      const store = await openStore(relay.url);
      await store.set('warm-up', 1);
      relay.chunks.length = 0;
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.set(`chunk/${i}`, { i, pad: 'x'.repeat(200) })),
      );
      const sets = relay.chunks.map((c) => (c.match(/\bSET\b/gi) ?? []).length);
      expect(sets.reduce((a, b) => a + b, 0)).toBe(8);
      expect(sets[0]).toBe(8);
      await store.close();
      relay.close();
    });

    it('an engine commit (its chunks, then its head) is one fenced script: one round trip', async () => {
      const { relay, client, lease } = await relayedLease();
      const grant = await lease.acquire('p', 'replica-1', 30_000);
      if (grant === null) throw new Error('no lease');
      // The first call of the script on a client sends it in full (EVAL): count from the next one.
      await lease.fencedSetAll('p', grant.token, [{ key: 'fundbot:warm', value: '1' }]);
      relay.chunks.length = 0;
      const commit = [
        ...Array.from({ length: 6 }, (_, i) => ({ key: `fundbot:chunk/${i}`, value: String(i) })),
        { key: 'fundbot:head', value: 'h' },
      ];
      expect(await lease.fencedSetAll('p', grant.token, commit)).toBe(true);
      const evals = relay.chunks.map((c) => (c.match(/EVALSHA/gi) ?? []).length);
      expect(evals).toEqual([1]);
      await client.close();
      relay.close();
    });

    it('sends a script in full once per client, even when its first calls come all at once', async () => {
      const { relay, client, lease } = await relayedLease();
      const grants = await Promise.all(
        Array.from({ length: 20 }, (_, i) => lease.acquire(`p${i}`, 'replica-1', 30_000)),
      );
      expect(grants.every((grant) => grant !== null)).toBe(true);
      const sent = relay.chunks.join('');
      expect(sent.match(/\r\nEVAL\r\n/gi) ?? []).toHaveLength(1);
      expect(sent.match(/\r\nEVALSHA\r\n/gi) ?? []).toHaveLength(19);
      await client.close();
      relay.close();
    });
  },
);

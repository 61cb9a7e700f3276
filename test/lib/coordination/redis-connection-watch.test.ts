import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/lib/clock.js';
import { connectRedis, type RedisClient } from '../../../src/lib/coordination/redis-client.js';
import {
  connectionNameOf,
  connectionNames,
  redisConnectionWatch,
} from '../../../src/lib/coordination/redis-connection-watch.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';

describe('connectionNames', () => {
  it('reads the name of every named connection of a CLIENT LIST answer', () => {
    const list = [
      'id=3 addr=127.0.0.1:5000 laddr=127.0.0.1:6379 fd=8 name=fundbot:a age=1 idle=0 flags=N db=0',
      'id=4 addr=127.0.0.1:5001 laddr=127.0.0.1:6379 fd=9 name= age=1 idle=0 flags=N db=0',
      'id=5 addr=127.0.0.1:5002 laddr=127.0.0.1:6379 fd=10 name=fundbot:b age=1 idle=0 flags=N db=0',
      '',
    ].join('\n');
    expect(connectionNames(list)).toEqual(new Set(['fundbot:a', 'fundbot:b']));
  });

  it('names a connection after the replica, with nothing CLIENT SETNAME refuses', () => {
    expect(connectionNameOf('host-12-ab12cd')).toBe('fundbot:host-12-ab12cd');
    expect(connectionNameOf('my host\n1')).toBe('fundbot:my_host_1');
  });
});

describe.skipIf(skipRedisTests())('the connection watch on a real redis-server', () => {
  let server: RedisServer | undefined;
  const clients: RedisClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) if (client.isOpen) client.destroy();
    await server?.stop();
    server = undefined;
  });
  const connect = async () => {
    const client = await connectRedis(server!.url, () => {});
    clients.push(client);
    return client;
  };
  const graceMs = 600;

  it('finds a killed replica by its closed connection after the reconnect grace, and never one that reconnects', async () => {
    server = await startRedisServer();
    const [a, b, c] = [await connect(), await connect(), await connect()];
    const changes: boolean[] = [];
    const watchA = redisConnectionWatch({
      client: a,
      self: 'a',
      clock: systemClock,
      graceMs,
      onChange: (watched) => changes.push(watched),
    });
    const watchB = redisConnectionWatch({ client: b, self: 'b', clock: systemClock, graceMs });
    redisConnectionWatch({ client: c, self: 'c', clock: systemClock, graceMs });
    // Three connections naming themselves: vitest's default 1 s is short on a loaded machine.
    await vi.waitFor(async () => expect(await watchB.gone([])).toEqual([]), { timeout: 10_000 });
    expect(watchB.watched).toBe(true);
    expect(await watchA.gone(['b', 'c'])).toEqual([]);
    expect(watchA.watched).toBe(true);
    expect(changes).toEqual([true]);

    // b's connection is cut by the server (a network blip): node-redis reconnects within its backoff and names
    // the new connection again, well inside the grace. Looked at all along, b is never gone.
    const bId = String(await b.sendCommand(['CLIENT', 'ID']));
    await a.sendCommand(['CLIENT', 'KILL', 'ID', bId]);
    const blipUntil = Date.now() + 3 * graceMs;
    while (Date.now() < blipUntil) {
      expect(await watchA.gone(['b', 'c'])).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(String(await b.sendCommand(['CLIENT', 'ID']))).not.toBe(bId);

    // c's process is killed: its socket closes and nothing reconnects. Gone once absent for the grace.
    const killedAt = Date.now();
    c.destroy();
    await vi.waitFor(async () => expect(await watchA.gone(['b', 'c'])).toEqual(['c']), {
      timeout: 5_000,
      interval: 50,
    });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(graceMs);
  });

  it('watches nobody where CLIENT is disabled (a managed Redis): the fleet falls back to beats, and says why once', async () => {
    server = await startRedisServer({ extraArgs: ['--rename-command', 'CLIENT', ''] });
    const a = await connect();
    await connect();
    const told: string[] = [];
    const watch = redisConnectionWatch({
      client: a,
      self: 'a',
      clock: systemClock,
      graceMs,
      onChange: (watched, reason) => told.push(`${watched} ${reason}`),
    });
    for (let look = 0; look < 3; look++) expect(await watch.gone(['b'])).toEqual([]);
    expect(watch.watched).toBe(false);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^false CLIENT LIST failed: .*unknown command/i);
    // The store itself works as ever.
    await a.set('k', 'v');
    expect(await a.get('k')).toBe('v');
  });
});

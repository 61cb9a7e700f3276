import { afterAll, beforeAll, beforeEach } from 'vitest';
import { connectRedis, type RedisClient } from '../../src/lib/coordination/redis-client.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

export interface SharedRedis {
  readonly server: RedisServer;
  readonly client: RedisClient;
}

/**
 * One real redis-server and one client for a describe block: started before its first test, closed after its
 * last, and (with `flushBeforeEach`) emptied before every test so each starts from nothing. Call it inside a
 * `describe.skipIf(skipRedisTests())` block; read `server` and `client` inside hooks and tests, not at import.
 */
export function sharedRedis(
  options: { readonly flushBeforeEach?: boolean; readonly onError?: (error: Error) => void } = {},
): SharedRedis {
  let server: RedisServer | undefined;
  let client: RedisClient | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    client = await connectRedis(server.url, options.onError ?? (() => {}));
  });
  afterAll(async () => {
    client?.destroy();
    await server?.stop();
  });
  if (options.flushBeforeEach === true) {
    beforeEach(async () => {
      await client?.flushAll();
    });
  }
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the shared redis-server's ${what} is read before it started`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get client() {
      return started(client, 'client');
    },
  };
}

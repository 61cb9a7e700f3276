import { createClient } from '@keyv/redis';
import { type BackoffPolicy, backoffMs } from '../backoff.js';
import { type Random, systemRandom } from '../random.js';

/** Reconnects back off to at most 2 s: a lease lives 30 s, so a replica must be back well before it expires. */
export const redisReconnectBackoff: BackoffPolicy = { baseMs: 50, maxMs: 2_000, jitter: 'spread' };

/**
 * node-redis' `socket.reconnectStrategy` for every Redis connection fundbot opens (coordination's shared
 * client and a single process's `redis://` store): the one backoff with {@link redisReconnectBackoff}.
 */
export function redisReconnectStrategy(random: Random = systemRandom): (retries: number) => number {
  return (retries) => backoffMs(redisReconnectBackoff, retries + 1, () => random.next());
}

/**
 * Connects the node-redis client that `@keyv/redis` re-exports (`@redis/client`), so leases, claims and the
 * store can share one client and one connection (pass it to `new KeyvRedis(client)` as well) and fundbot carries
 * no second Redis library. node-redis reconnects on its own and queues commands meanwhile; `onError` receives
 * connection errors, which would otherwise crash the process (an EventEmitter's 'error' without a listener throws).
 */
export async function connectRedis(
  url: string,
  onError: (error: Error) => void,
  random: Random = systemRandom,
  options: {
    readonly disableOfflineQueue?: boolean;
    /**
     * Wait at most this long for the connection, then go on connecting in the background (a Redis absent at
     * start must not block start-up: health reports it). Default: wait until connected.
     */
    readonly connectWithinMs?: number;
  } = {},
) {
  const client = createClient({
    url,
    // The store sets it: a write queued while Redis is away would land minutes after the caller saw it fail.
    disableOfflineQueue: options.disableOfflineQueue ?? false,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: redisReconnectStrategy(random),
    },
  });
  client.on('error', onError);
  if (options.connectWithinMs === undefined) {
    await client.connect();
  } else {
    let timer: NodeJS.Timeout | undefined;
    const connecting = client.connect().then(
      () => undefined,
      (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))),
    );
    await Promise.race([
      connecting,
      new Promise((resolve) => (timer = setTimeout(resolve, options.connectWithinMs))),
    ]);
    clearTimeout(timer);
  }
  return client;
}

/** A connected node-redis client, as coordination and KeyvRedis use it. */
export type RedisClient = Awaited<ReturnType<typeof connectRedis>>;

import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { keyvSerialize } from './keyv-serialize.js';

/**
 * The Keyv every `redis://` store is built on (openStore's own connection, and a replica's shared one in
 * src/app/replica-coordination.ts): one place for the `fundbot` namespace and the serializer, so values that
 * one writes (or a fenced script encodes through it, keyv-redis-entry.ts) the other reads back.
 * keyv's default turns every failure into "not found": a stopped Redis would look like an empty store and
 * the engine would announce everything again, so failures throw, a failed connection too.
 */
export function redisKeyv(connection: ConstructorParameters<typeof KeyvRedis>[0]): Keyv {
  const store = new KeyvRedis(connection, {
    throwOnErrors: true,
    throwOnConnectError: true,
    connectionTimeout: 5_000,
  });
  return new Keyv({ store, namespace: 'fundbot', throwOnErrors: true, serialize: keyvSerialize });
}

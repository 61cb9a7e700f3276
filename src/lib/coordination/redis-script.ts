import { createHash } from 'node:crypto';

/** Arguments of one script call: Redis keys and plain arguments, all strings on the wire. */
export interface ScriptCall {
  readonly keys: string[];
  readonly arguments: string[];
}

/**
 * The slice of a node-redis client (`@redis/client`, the client `@keyv/redis` uses) that coordination needs.
 * Structural, so the lead can pass the very client the store's KeyvRedis was built on (one connection, not two)
 * and so nothing here depends on node-redis' generic client types.
 */
export interface RedisScriptClient {
  eval(script: string, options: ScriptCall): Promise<unknown>;
  evalSha(sha1: string, options: ScriptCall): Promise<unknown>;
}

/**
 * A Lua script run by its SHA1 (`EVALSHA`: 40 bytes on the wire instead of the script's few hundred), falling
 * back to `EVAL` when Redis answers NOSCRIPT: after a Redis restart or `SCRIPT FLUSH` the script cache is empty,
 * and `EVAL` fills it again. The first call on a client is an `EVAL` (which loads the script), and calls made
 * while it is under way wait for it: a replica's first balancing tick acquires ~1,000 leases at once, and each
 * of them used to be answered NOSCRIPT and sent again in full (3,468 failed calls at a fleet's start, bench
 * scaleRedis).
 */
export class RedisScript {
  readonly sha1: string;
  readonly #firstCalls = new WeakMap<RedisScriptClient, Promise<unknown>>();

  constructor(readonly source: string) {
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisScriptClient, call: ScriptCall): Promise<unknown> {
    const first = this.#firstCalls.get(client);
    if (first === undefined) {
      const loading = client.eval(this.source, call);
      this.#firstCalls.set(
        client,
        loading.catch(() => undefined),
      );
      return loading;
    }
    await first;
    try {
      return await client.evalSha(this.sha1, call);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, call);
    }
  }
}

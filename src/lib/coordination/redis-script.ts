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
 * and `EVAL` fills it again.
 */
export class RedisScript {
  readonly sha1: string;

  constructor(readonly source: string) {
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisScriptClient, call: ScriptCall): Promise<unknown> {
    try {
      return await client.evalSha(this.sha1, call);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, call);
    }
  }
}

import type { Clock } from '../clock.js';

/**
 * Which replicas are alive, so each knows the live count N and its fair share of projects. A replica that
 * stops beating (killed, paused, cut off from Redis) drops out after its heartbeat TTL.
 */
export interface ReplicaRegistry {
  /** Marks `id` alive for `ttlMs` and returns the live replicas (sorted, `id` included). */
  heartbeat(id: string, ttlMs: number): Promise<string[]>;
  /** Removes `id` at once (a clean shutdown: the others rebalance without waiting for the TTL). */
  leave(id: string): Promise<void>;
}

/** In-process registry: share one between several balancers to model replicas in tests. */
export function memoryReplicaRegistry(clock: Clock): ReplicaRegistry {
  const aliveUntil = new Map<string, number>();
  return {
    async heartbeat(id, ttlMs) {
      const now = clock.now();
      aliveUntil.set(id, now + ttlMs);
      for (const [replica, until] of aliveUntil) if (until <= now) aliveUntil.delete(replica);
      return [...aliveUntil.keys()].sort();
    },
    async leave(id) {
      aliveUntil.delete(id);
    },
  };
}

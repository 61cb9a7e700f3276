import type { Clock } from '../clock.js';

/** What one heartbeat sees of the fleet. */
export interface FleetView {
  /** Replicas whose beat is alive, sorted, the beating one included. */
  readonly live: string[];
  /**
   * Replicas whose beat ran out and that no one has buried yet ({@link ReplicaRegistry.buryExpired}): dead or
   * frozen, or cut off from Redis; their leases may still be held.
   */
  readonly expired: string[];
  /**
   * Live replicas whose Redis connection carries their name (`fundbot:<id>`, see redis-connection-watch.ts):
   * one of them whose connection is gone is dead at once. The others (no CLIENT command behind a proxy, an
   * older fundbot) are judged by their beat alone.
   */
  readonly watched: string[];
  /**
   * False when the beating replica was not listed before this beat: its first beat, or the others buried it
   * (its beat ran out, or its connection was seen gone) and may have taken its projects.
   */
  readonly wasListed: boolean;
}

/**
 * Which replicas are alive, so each knows the live count N and its fair share of projects. A replica that
 * stops beating (killed, paused, cut off from Redis) stays listed as expired until a live one buries it (and
 * breaks its leases, lease-balancer.ts); one that leaves cleanly is removed at once.
 */
export interface ReplicaRegistry {
  /**
   * Marks `id` alive for `ttlMs` (and whether its connection is watched) and returns the fleet as it stands.
   */
  heartbeat(id: string, ttlMs: number, options?: { readonly watched?: boolean }): Promise<FleetView>;
  /** Removes `id` at once: a clean shutdown, or a replica whose connection is gone (the others rebalance). */
  leave(id: string): Promise<void>;
  /**
   * Removes those of `ids` whose beat is still run out when this runs (one that beat again meanwhile stays) and
   * returns them.
   */
  buryExpired(ids: readonly string[]): Promise<string[]>;
}

/** In-process registry: share one between several balancers to model replicas in tests. */
export function memoryReplicaRegistry(clock: Clock): ReplicaRegistry {
  const aliveUntil = new Map<string, number>();
  const watched = new Set<string>();
  return {
    async heartbeat(id, ttlMs, options = {}) {
      const now = clock.now();
      const wasListed = aliveUntil.has(id);
      aliveUntil.set(id, now + ttlMs);
      if (options.watched === true) watched.add(id);
      else watched.delete(id);
      const live = [...aliveUntil].filter(([, until]) => until > now).map(([replica]) => replica);
      return {
        live: live.sort(),
        expired: [...aliveUntil]
          .filter(([, until]) => until <= now)
          .map(([replica]) => replica)
          .sort(),
        watched: live.filter((replica) => watched.has(replica)).sort(),
        wasListed,
      };
    },
    async leave(id) {
      aliveUntil.delete(id);
      watched.delete(id);
    },
    async buryExpired(ids) {
      const now = clock.now();
      const buried = ids.filter((id) => (aliveUntil.get(id) ?? Number.POSITIVE_INFINITY) <= now);
      for (const id of buried) {
        aliveUntil.delete(id);
        watched.delete(id);
      }
      return buried;
    },
  };
}

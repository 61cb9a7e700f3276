import { connectReplicaCoordination, type ReplicaCoordination } from '../../src/app/replica-coordination.js';
import { systemClock } from '../../src/lib/clock.js';

/**
 * A replica's coordination on the test's redis-server (the Redis store and the claims the
 * replicas share), polling no projects: what a delivery test needs of a replica.
 */
export function connectTestReplica(url: string, replicaId: string): Promise<ReplicaCoordination> {
  return connectReplicaCoordination({
    url,
    replicaId,
    clock: systemClock,
    projects: () => [],
    ttlMs: 30_000,
    onError: () => {},
  });
}

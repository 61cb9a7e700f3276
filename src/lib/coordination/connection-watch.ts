import type { Clock } from '../clock.js';

/**
 * Tells a killed replica from a live one by its connection to the store, without waiting for its beat to run
 * out: when a process dies (kill -9, OOM, crash) its kernel closes its TCP connections at once, and the server
 * drops them. A frozen replica (SIGSTOP, a long GC, a network cut) keeps its connection open: only its beat tells.
 */
export interface ConnectionWatch {
  /**
   * True while the server shows this replica's own connection under its name: it may then be watched by the
   * others (the registry says so at its next beat). False when it cannot be told (behind a proxy, CLIENT
   * refused): the others then judge it by its beat alone.
   */
  readonly watched: boolean;
  /**
   * Looks at the server's connections and returns those of `replicas` (replicas that said they are watched)
   * whose connection has been gone at every look for at least the reconnect grace: not a replica reconnecting
   * after a blip, which is back within a round trip of its first retry. (After a Redis restart the replicas
   * reconnect with longer backoffs: the fleet watch judges nobody by this until {@link RECONNECT_SETTLE_MS}
   * after its own last failure.) Empty while this replica cannot see its own connection: a view that does not
   * show it cannot show the others' either.
   */
  gone(replicas: readonly string[]): Promise<string[]>;
}

/**
 * A connection absent at every look for this long is not a reconnect after a blip: node-redis retries a dropped
 * connection after 50 ms (redis-client.ts) and the server lists it again a round trip later.
 */
export const RECONNECT_GRACE_MS = 1_000;

/**
 * After this replica itself could not reach Redis (a Redis restart, an outage of its own link), the others may
 * still be reconnecting for this long (node-redis' backoff reaches 2 s ± 25 % while Redis is away): nobody is
 * judged by a closed connection until it passed. Also the longest gap in looking that keeps the watch going.
 */
export const RECONNECT_SETTLE_MS = 3_000;

/**
 * The bookkeeping both watches share: since when each watched replica has been missing from the server's
 * connections, started again after a gap in looking (this replica paused, or could not reach the server).
 */
export class AbsenceTracker {
  readonly #since = new Map<string, number>();
  #lastLookAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
    private readonly maxGapMs = RECONNECT_SETTLE_MS,
  ) {}

  /** Of `replicas`, those absent from `present` at every look for at least the grace. */
  judge(replicas: readonly string[], present: (replica: string) => boolean): string[] {
    const now = this.clock.now();
    // A gap in looking is a gap in the evidence: what was absent before it may have come and gone since.
    if (now - this.#lastLookAt > this.maxGapMs) this.#since.clear();
    this.#lastLookAt = now;
    const watched = new Set(replicas);
    for (const replica of this.#since.keys()) if (!watched.has(replica)) this.#since.delete(replica);
    const gone: string[] = [];
    for (const replica of replicas) {
      if (present(replica)) {
        this.#since.delete(replica);
        continue;
      }
      const since = this.#since.get(replica) ?? now;
      this.#since.set(replica, since);
      if (now - since >= this.graceMs) gone.push(replica);
    }
    return gone;
  }

  /** Forgets every absence (this replica cannot see the server's connections now). */
  reset(): void {
    this.#since.clear();
    this.#lastLookAt = Number.NEGATIVE_INFINITY;
  }
}

/**
 * The connections of replicas sharing one in-process store (the lease model test): a replica opens its
 * connection when it starts, and it closes when the replica dies or its link drops; a frozen replica's stays.
 */
export class MemoryConnections {
  readonly #open = new Set<string>();

  open(replica: string): void {
    this.#open.add(replica);
  }

  close(replica: string): void {
    this.#open.delete(replica);
  }

  isOpen(replica: string): boolean {
    return this.#open.has(replica);
  }

  /** The watch of `self` on these connections. */
  watch(self: string, clock: Clock, graceMs = RECONNECT_GRACE_MS): ConnectionWatch {
    const absences = new AbsenceTracker(clock, graceMs);
    const connections = this;
    return {
      get watched() {
        return connections.isOpen(self);
      },
      async gone(replicas) {
        if (!connections.isOpen(self)) {
          absences.reset();
          return [];
        }
        return absences.judge(replicas, (replica) => connections.isOpen(replica));
      },
    };
  }
}

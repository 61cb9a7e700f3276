import type { Clock } from '../clock.js';
import { type ConnectionWatch, RECONNECT_SETTLE_MS } from './connection-watch.js';
import type { Lease } from './lease.js';
import type { FleetView, ReplicaRegistry } from './replica-registry.js';

/** A replica found dead at a look, and the projects whose leases were broken for the others to take. */
export interface ReplicaDeath {
  readonly replica: string;
  /** `connection`: its connection to the store is gone (killed); `beat`: its beat ran out (frozen, cut off). */
  readonly cause: 'connection' | 'beat';
  readonly projects: readonly string[];
}

/** What one look saw. */
export interface FleetLook {
  /** The live replicas, the dead ones of this look left out. */
  readonly live: readonly string[];
  readonly deaths: readonly ReplicaDeath[];
  /** The live replicas are not those of the previous look (a join, a clean leave, a death). */
  readonly changed: boolean;
  /**
   * The others buried this replica before this beat (its beat ran out, or its connection was seen gone): its
   * leases were broken, whatever it believes it holds.
   */
  readonly buried: boolean;
}

export interface FleetWatchOptions {
  readonly self: string;
  readonly registry: ReplicaRegistry;
  readonly lease: Lease;
  readonly clock: Clock;
  readonly beatTtlMs: number;
  readonly connections?: ConnectionWatch;
  /** How long after its own failed look this replica judges nobody by a closed connection; default 3 s. */
  readonly settleMs?: number;
}

/**
 * A replica's beat and its look at the others, every second by default: the part of the balancing that tells the
 * dead from the living within seconds, while the leases themselves live 30 s.
 *
 * A replica is dead when its connection to the store has been gone at every look for the reconnect grace (kill -9,
 * OOM, a crash: the kernel closes it at once; see connection-watch.ts) while this replica has reached Redis for
 * the settle time, or when its beat ran out while this replica was beating without a gap for a whole beat TTL
 * (frozen, cut off: only time tells; a Redis outage stops every beat and drops every connection at once and is
 * not a death). The first replica to see it buries it: removes it from the registry and breaks its
 * leases, so the next balancing step (at once) gives its projects to the others with greater tokens; a commit it
 * still makes with an old token is refused by the fence. A replica buried while alive (a long stall) finds out at
 * its next beat and drops what it held.
 */
export class FleetWatch {
  readonly #options: FleetWatchOptions;
  /** Start of the last beat the registry answered: this replica's leases count only while it is fresh. */
  #lastBeatAt = Number.NEGATIVE_INFINITY;
  /** Since when this replica has beaten without a gap longer than half a beat TTL. */
  #watchingSince = Number.NEGATIVE_INFINITY;
  #beaten = false;
  #buried = false;
  /** When a look of this replica last failed (Redis unreachable from here). */
  #lastFailureAt = Number.NEGATIVE_INFINITY;
  #lastLive = '';

  constructor(options: FleetWatchOptions) {
    this.#options = options;
  }

  /** True while this replica's last beat is younger than a beat TTL: the others do not think it dead. */
  beatFresh(now: number): boolean {
    return now - this.#lastBeatAt < this.#options.beatTtlMs;
  }

  /** One beat, nothing buried (for the join's looks). */
  async beat(): Promise<FleetView> {
    const { self, registry, clock, beatTtlMs, connections } = this.#options;
    const startedAt = clock.now();
    const view = await registry.heartbeat(self, beatTtlMs, { watched: connections?.watched ?? false });
    if (startedAt - this.#lastBeatAt > beatTtlMs / 2) this.#watchingSince = startedAt;
    this.#lastBeatAt = startedAt;
    if (this.#beaten && !view.wasListed) this.#buried = true;
    this.#beaten = true;
    return view;
  }

  /** Beats, finds the dead, buries them and breaks their leases among `projects`. */
  async look(projects: readonly string[]): Promise<FleetLook> {
    try {
      return await this.#look(projects);
    } catch (error) {
      this.#lastFailureAt = this.#options.clock.now();
      throw error;
    }
  }

  async #look(projects: readonly string[]): Promise<FleetLook> {
    const { self, registry, lease, clock, beatTtlMs, connections } = this.#options;
    const view = await this.beat();
    const buried = this.#buried;
    this.#buried = false;
    const dead = new Map<string, ReplicaDeath['cause']>();
    if (view.expired.length > 0 && clock.now() - this.#watchingSince >= beatTtlMs) {
      for (const replica of await registry.buryExpired(view.expired)) dead.set(replica, 'beat');
    }
    if (connections !== undefined) {
      const gone = await connections.gone(view.watched.filter((r) => r !== self));
      // Just back from an outage of its own, the others may still be reconnecting: looked at, not judged.
      const settled = clock.now() - this.#lastFailureAt >= (this.#options.settleMs ?? RECONNECT_SETTLE_MS);
      for (const replica of settled ? gone : []) {
        await registry.leave(replica);
        dead.set(replica, 'connection');
      }
    }
    const freed = dead.size > 0 ? await lease.revoke([...dead.keys()], projects) : new Map<string, string>();
    const deaths = [...dead].map(([replica, cause]) => ({
      replica,
      cause,
      projects: [...freed]
        .filter(([, holder]) => holder === replica)
        .map(([project]) => project)
        .sort(),
    }));
    const live = view.live.filter((replica) => !dead.has(replica));
    const key = live.join(' ');
    const changed = key !== this.#lastLive;
    this.#lastLive = key;
    return { live, deaths, changed, buried };
  }
}

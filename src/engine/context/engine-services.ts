import type { ApiClient } from '../../api/index.js';
import type { FeedName } from '../../domain/feeds.js';
import type { Logger } from '../../domain/logger.js';
import type { Clock } from '../../lib/clock.js';
import type { Random } from '../../lib/random.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { PollOutcome } from './engine-project.js';
import type { EngineSettings } from './engine-settings.js';
import type { Lease } from './lease-port.js';

/** Whom a request is counted for: a feed's poll, or a command (which may use the reserve). */
export type RequestTag = FeedName | 'command';

/** The engine's counters (exposed read-only through `Engine.metrics()`). */
export interface EngineCounters {
  requests: Record<RequestTag, number>;
  polls: number;
  /** Project reads sent without a credential (the per-IP public budget). */
  publicReads: number;
  eventsEmitted: number;
  eventsDelivered: number;
  deliveryFailures: number;
  floodsHeld: number;
  heals: number;
}

export function emptyCounters(): EngineCounters {
  return {
    requests: { fundings: 0, project: 0, wall: 0, blog: 0, incentives: 0, command: 0 },
    polls: 0,
    publicReads: 0,
    eventsEmitted: 0,
    eventsDelivered: 0,
    deliveryFailures: 0,
    floodsHeld: 0,
    heals: 0,
  };
}

/** What every stage is handed: the injected ports, the settings and the counters (the runtimes: EngineContext). */
export interface EngineServices {
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly settings: EngineSettings;
  readonly counters: EngineCounters;
  readonly lease: Lease;
  readonly replicaId: string;
  /** Told about every finished poll (metrics, health); must not throw. */
  readonly onPoll: ((poll: PollOutcome) => void) | undefined;
}

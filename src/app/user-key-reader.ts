import type { UserKey } from '../api/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../ops/index.js';
import { leasedGateway } from './leased-gateway.js';
import type { StartedReplicas } from './start-replicas.js';

/** The one lease name: every replica competes for the same. */
export const USER_KEY_READER_LEASE = 'user-key-reader';

/** Which replica reads the User key: undefined `reads` for one process (it always reads). */
export interface UserKeyReader {
  /** For the engine's `userKeyReader`: true while this replica holds the reader lease. */
  readonly reads: (() => boolean) | undefined;
  stop(): Promise<void>;
}

/**
 * One User-key reader per fleet (issue 30), on a lease like the Discord gateway's: the holder reads
 * `/user/me/projects` at the pace the key's day allows and shares each read in the store; the others follow
 * it (engine/user-signal-share.ts). A holder that dies is replaced once its lease expires: within the TTL and
 * a tenth of it (the standbys try every TTL/10), then the new reader's next read.
 *
 * Cost: as the gateway lease, one acquire script per holder and TTL/3, per standby one per TTL/10.
 */
export function startUserKeyReader(input: {
  readonly replicas: StartedReplicas | undefined;
  readonly userKey: UserKey | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
}): UserKeyReader {
  const { replicas, logger } = input;
  if (replicas === undefined || input.userKey === undefined)
    return { reads: undefined, stop: async () => {} };
  let reading = false;
  const lease = leasedGateway({
    lease: replicas.singletons,
    resource: USER_KEY_READER_LEASE,
    name: 'User key reader',
    holder: replicas.replicaId,
    ttlMs: replicas.ttlMs,
    clock: input.clock,
    logger,
    async connect() {
      reading = true;
      return {
        async stop() {
          reading = false;
        },
      };
    },
  });
  // Not awaited: the engine asks `reads` at each read. A first tick that fails (Redis away) leaves the reading
  // to the other replicas.
  const started = lease
    .start()
    .catch((error: unknown) =>
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'the User key reader lease could not be tried: this replica leaves the User key to the others',
      ),
    );
  return {
    reads: () => reading,
    async stop() {
      await started;
      await lease.stop();
    },
  };
}

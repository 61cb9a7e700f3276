import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import { isStoreFailure, type KeyValueStore } from '../../lib/store.js';

/** Bolt refuses requests older than 5 minutes; a signature is remembered that long plus a clock margin. */
export const replayWindowMs = 6 * 60_000;

/** A signed Slack request seen before: refused, never run twice. */
export class SlackReplayError extends Error {
  override readonly name = 'SlackReplayError';
  /** Bolt passes coded errors through to the receiver's error handler unchanged. */
  readonly code = 'fundbot_slack_replay';
  constructor() {
    super('a signed Slack request was replayed within its 5-minute window: refused');
  }
}

/**
 * Remembers the signature of every verified Slack request for the replay window, in
 * the injected store, so a replay is refused by any replica. A signature covers the
 * timestamp and the body, so a legitimate retry by Slack (new timestamp) is a new
 * signature and passes.
 *
 * Cost: one store read and one write per inbound request; one record of about 80
 * bytes per request for 6 minutes (the store's TTL drops it). The read-then-write is
 * not atomic: two replicas receiving the same replay within the same few
 * milliseconds could both run it (the store has no set-if-absent).
 */
export function createSlackReplayGuard(store: KeyValueStore, clock: Clock) {
  const seenSchema = z.object({ at: z.number() });
  return {
    /** True the first time a signature is seen within the window. */
    async firstSeen(signature: string): Promise<boolean> {
      const key = `slack/replay/${createHash('sha256').update(signature).digest('hex').slice(0, 32)}`;
      try {
        if (await store.get(key, seenSchema)) return false;
        await store.set(key, { at: clock.now() }, replayWindowMs);
      } catch (error) {
        // A store outage must not drop the command unanswered (Slack's 3 s ack, issue 23): it runs and
        // answers "the store is down". Bolt's signature check still refuses requests older than 5 minutes.
        if (isStoreFailure(error)) return true;
        throw error;
      }
      return true;
    },
  };
}

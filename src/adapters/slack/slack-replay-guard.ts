import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type App, HTTPModuleFunctions, type ReceiverProcessEventErrorHandlerArgs } from '@slack/bolt';
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
 * One atomic set-if-absent in the store ({@link KeyValueStore.setIfAbsent}: Redis
 * `SET NX PX`, SQLite one conditional insert), so of any number of concurrent copies of
 * one signed request, on one replica or several, exactly one runs.
 *
 * Cost: one store write per inbound request; one record of about 80 bytes per request
 * for 6 minutes (the store's TTL drops it).
 */
export function createSlackReplayGuard(store: KeyValueStore, clock: Clock) {
  return {
    /** True the first time a signature is seen within the window. */
    async firstSeen(signature: string): Promise<boolean> {
      const key = `slack/replay/${createHash('sha256').update(signature).digest('hex').slice(0, 32)}`;
      try {
        return await store.setIfAbsent(key, { at: clock.now() }, replayWindowMs);
      } catch (error) {
        // A store outage must not drop the command unanswered (Slack's 3 s ack, issue 23): it runs and
        // answers "the store is down". Bolt's signature check still refuses requests older than 5 minutes.
        if (isStoreFailure(error)) return true;
        throw error;
      }
    },
  };
}

/**
 * The HTTPReceiver options the replay guard needs, in every HTTP mode (one workspace or OAuth):
 * the verified signature goes into the context, and a {@link SlackReplayError} is answered 401.
 * Socket Mode has no signed requests to replay (envelopes arrive over the app's own authenticated
 * WebSocket and are acknowledged by id), so it needs no guard.
 */
export const replayGuardReceiverOptions = {
  customPropertiesExtractor: (req: IncomingMessage) => ({ slackSignature: req.headers['x-slack-signature'] }),
  processEventErrorHandler: async (args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> => {
    if ((args.error as { code?: unknown }).code === 'fundbot_slack_replay') {
      if (!args.response.headersSent) args.response.writeHead(401).end();
      // Answered: Bolt marks it acknowledged, so it does not log "not acknowledged within 3 seconds" for a
      // refused replay as if an event was lost (issue 30). The guard runs before any listener could ack.
      return true;
    }
    return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
  },
};

/** Runs the guard before every listener of `app`: a signed request seen within its window does not run again. */
export function useSlackReplayGuard(app: App, store: KeyValueStore, clock: Clock): void {
  const guard = createSlackReplayGuard(store, clock);
  app.use(async ({ context, next }) => {
    const signature = context['slackSignature'];
    if (typeof signature === 'string' && !(await guard.firstSeen(signature))) {
      throw new SlackReplayError();
    }
    await next();
  });
}

import type { webApi } from '@slack/bolt';

/**
 * Web API retries for the bot's own calls other than posting notices (users.info,
 * auth.test). Notices go through a separate client with NO retries (see
 * createSlackPostingClient): a retried post after a timeout or a 5xx is exactly the
 * duplicate the delivery ledger prevents.
 *
 * @slack/web-api's default retries 10 times over about 30 minutes, 5xx included.
 * That is wrong for fundbot: a notice stuck for 30 minutes inside one call blocks
 * its outbox worker, holds the message out of order, and hides the failure from the
 * outbox, which has its own durable retry with backoff and survives a restart. So:
 * a few quick retries (about 1 s, 2 s, 4 s; all within ~30 s) ride out a blip, then
 * the error goes to the outbox. Slash-command replies go through response_url
 * (plain fetch, no retry) and users.info falls back to the configured admin list.
 */
export const botRetryPolicy: webApi.RetryOptions = {
  retries: 3,
  factor: 2,
  minTimeout: 1000,
  maxTimeout: 8000,
  maxRetryTime: 30_000,
  randomize: true,
};

/**
 * Rate limits (429) are rejected at once (`rejectRateLimitedCalls: true`) instead of
 * being waited out inside the client: the client would pause its WHOLE request queue
 * for Retry-After seconds, so one busy channel would stall every other channel and
 * the users.info of a slash command. The outbox retries the notice later; the error
 * carries `retryAfter`.
 */
export const rejectRateLimitedCalls = true;

/** Each Web API request gives up after this long: the client's default is no timeout, and a hung socket would hang a worker. */
export const webApiTimeoutMs = 10_000;

/**
 * The Socket Mode connection (apps.connections.open) retries differently: it is the
 * bot's only inbound channel and must come back after any outage, so it retries
 * without end with a capped backoff (1 s … 60 s), and it waits out rate limits
 * (the connection call is rate limited per app and nothing else shares its client).
 * A short policy here would let a reconnect fail for good: the socket client treats
 * an HTTP 5xx after the retries as unrecoverable.
 */
export const socketConnectionRetryPolicy: webApi.RetryOptions = {
  forever: true,
  factor: 2,
  minTimeout: 1000,
  maxTimeout: 60_000,
  randomize: true,
};

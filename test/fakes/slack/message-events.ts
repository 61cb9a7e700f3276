/**
 * The fake Slack's `message` events (Events API `message.channels` / `message.groups`): every message that
 * lands in a channel the bot is in, the bot's own included, goes to the app once it subscribed, either over
 * Socket Mode (an `events_api` envelope on one of its connections, which acks by envelope id) or as the
 * Events API's signed HTTP POST to its request URL (one of several URLs in turn, as a load balancer in front of
 * replicas would spread them; a refused or failed delivery is retried on the next URL with `X-Slack-Retry-Num`,
 * up to Slack's three retries: at once, a minute later and five minutes later, as Slack's Events API retries, so
 * an event that found the app down for a restart still reaches it).
 *
 * What the payload carries follows Slack's `message` event: `type`, `channel`, `channel_type`, `user` (the bot's
 * user for its own posts), `bot_id`, `text`, `blocks`, `ts`, `event_ts`, `thread_ts` for a reply. Message
 * metadata: Slack documents it on message events, but apps report the `event_payload` stripped unless the
 * event type is declared in the app's manifest (slackapi/python-slack-sdk#1501, slack-go/slack#1343); by
 * default the fake sends the `event_type` alone, so an app must not depend on the payload (`metadata: 'full'`
 * sends it whole).
 *
 * Controls for fault schedules: `delayMs` (events arrive this long after the message lands) and `drop` (an
 * event lost on the way, e.g. to a replica that died).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { FakeSlackMessage } from './message-store.js';
import type { SocketMode } from './socket-mode.js';

export type MessageEventDelivery =
  | { readonly via: 'socket' }
  | {
      readonly via: 'http';
      /** The app's request URLs (`…/slack/events`), tried in turn. */
      readonly urls: readonly string[];
      /** The app's signing secret: every request is signed as Slack signs it. */
      readonly signingSecret: string;
    };

export interface MessageEventOptions {
  /** Events arrive this long after the message lands (Slack: usually well under a second). Default 0. */
  readonly delayMs?: number;
  /** 'type-only' (default): metadata's `event_type` without its payload, as apps observe; 'full': all of it. */
  readonly metadata?: 'type-only' | 'full';
  /** Return true to lose this event (never delivered). */
  readonly drop?: (message: FakeSlackMessage) => boolean;
}

export interface MessageEvents {
  /** The app subscribes to message events (replacing an earlier subscription). */
  subscribe(delivery: MessageEventDelivery, options?: MessageEventOptions): void;
  unsubscribe(): void;
  /** A message landed: its event goes out if the app subscribed. */
  landed(message: FakeSlackMessage): void;
  /** Event payloads sent, with the outcome of their delivery. */
  readonly sent: readonly SentMessageEvent[];
}

export interface SentMessageEvent {
  eventId: string;
  readonly channel: string;
  readonly ts: string;
  /** 'socket', 'http 200', 'failed: …' (after retries), 'dropped'. */
  outcome: string;
}

export interface MessageEventDeps {
  readonly teamId: string;
  readonly appId: string;
  readonly socketMode: SocketMode;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  readonly changed: () => void;
}

/** Slack retries a failed Events API delivery three times. */
const maxRetries = 3;
/** Slack retries a failed event delivery at once, after a minute and after five minutes (on the fake's clock). */
const retryDelaysMs = [0, 60_000, 300_000];

export function createMessageEvents(deps: MessageEventDeps): MessageEvents {
  let subscription: { delivery: MessageEventDelivery; options: MessageEventOptions } | undefined;
  let nextUrl = 0;
  const sent: SentMessageEvent[] = [];

  function payloadOf(message: FakeSlackMessage, full: boolean) {
    const { channel, metadata, ...rest } = message;
    return {
      token: 'legacy-verification-token',
      team_id: deps.teamId,
      api_app_id: deps.appId,
      event: {
        type: 'message',
        channel,
        channel_type: channel.startsWith('G') ? 'group' : 'channel',
        ...rest,
        ...(metadata
          ? { metadata: full ? metadata : { event_type: metadata.event_type, event_payload: {} } }
          : {}),
        event_ts: message.ts,
      },
      type: 'event_callback',
      event_id: `Ev${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(deps.now() / 1000),
      authorizations: [
        { team_id: deps.teamId, user_id: 'U0BOT', is_bot: true, is_enterprise_install: false },
      ],
    };
  }

  async function post(url: string, body: string, secret: string, retry: number): Promise<number> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': `v0=${signature}`,
        ...(retry > 0 ? { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_error' } : {}),
      },
      body,
      signal: AbortSignal.timeout(3_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function deliver(message: FakeSlackMessage, record: SentMessageEvent): Promise<void> {
    const current = subscription;
    if (!current) return;
    const { delivery, options } = current;
    if ((options.delayMs ?? 0) > 0) await deps.sleep(options.delayMs ?? 0);
    const payload = payloadOf(message, options.metadata === 'full');
    record.eventId = payload.event_id;
    if (delivery.via === 'socket') {
      const delivered = deps.socketMode.sendEvent(payload);
      record.outcome = delivered ? 'socket' : 'failed: no connection';
      deps.changed();
      return;
    }
    const body = JSON.stringify(payload);
    for (let retry = 0; retry <= maxRetries; retry += 1) {
      const waitMs = retry > 0 ? (retryDelaysMs[retry - 1] ?? 0) : 0;
      if (waitMs > 0) await deps.sleep(waitMs);
      const url = delivery.urls[nextUrl % delivery.urls.length] as string;
      nextUrl += 1;
      try {
        const status = await post(url, body, delivery.signingSecret, retry);
        record.outcome = `http ${status}`;
        if (status < 500) break;
      } catch (error) {
        record.outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    deps.changed();
  }

  return {
    sent,
    subscribe(delivery, options = {}) {
      if (delivery.via === 'http' && delivery.urls.length === 0)
        throw new Error('fake Slack: message events over HTTP need at least one request URL');
      subscription = { delivery, options };
    },
    unsubscribe() {
      subscription = undefined;
    },
    landed(message) {
      if (!subscription) return;
      const record: SentMessageEvent = {
        eventId: '',
        channel: message.channel,
        ts: message.ts,
        outcome: 'pending',
      };
      sent.push(record);
      if (subscription.options.drop?.(message)) {
        record.outcome = 'dropped';
        return;
      }
      // Slack sends events after the Web API answered the call that made the message.
      setImmediate(() => void deliver(message, record));
    },
  };
}

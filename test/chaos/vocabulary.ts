/**
 * The chaos vocabulary (test/chaos/README.md): what the platforms, the API, the store and the processes really
 * do, as values a seed's schedule is made of. Pure types; schedule.ts draws them from a seed.
 */

export type Platform = 'slack' | 'discord';

/** What one request to a chat platform meets. */
export type RequestFault =
  | { readonly kind: 'ok' }
  /** A 5xx before the platform did anything. */
  | { readonly kind: 'error-before'; readonly status: 500 | 502 | 503 }
  /** A 5xx after the platform processed it (the post is there). */
  | { readonly kind: 'error-after'; readonly status: 500 | 503 }
  /** 429 with Retry-After: nothing was done. */
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number }
  /** The platform processes it `delayMs` late (the post lands then) and answers then. */
  | { readonly kind: 'late-landing'; readonly delayMs: number }
  /** Processed at once, answered `delayMs` late. */
  | { readonly kind: 'late-answer'; readonly delayMs: number }
  /** No answer ever: the client times out. `lands`: the platform processed it. */
  | { readonly kind: 'never-answers'; readonly lands: boolean }
  /** The connection is reset after the request was sent. `lands`: the platform processed it. */
  | { readonly kind: 'reset'; readonly lands: boolean }
  /** The connection is refused: nothing was sent. */
  | { readonly kind: 'refused' };

export type RequestFaultKind = RequestFault['kind'];

/** Which requests a fault can meet: a post (message, reply, batch, digest), a look, an edit, anything else. */
export type RequestCategory = 'post' | 'look' | 'edit' | 'other';

/** A stretch of time in which one channel's (or every channel's) posts on a platform meet one fault. */
export interface Storm {
  readonly platform: Platform;
  /** Channel id; undefined: every channel of the platform. */
  readonly channel?: string;
  readonly from: number;
  readonly to: number;
  readonly fault: RequestFaultKind;
  /** Share of the posts in the stretch that meet it. */
  readonly rate: number;
}

/** The background: how often each platform's requests fail, and how. */
export interface Weather {
  readonly postFaultRate: Readonly<Record<Platform, number>>;
  readonly lookFaultRate: number;
  readonly editFaultRate: number;
  /** Relative weights of the faults a failing request meets (absent: never). */
  readonly mix: Readonly<Partial<Record<RequestFaultKind, number>>>;
}

/** Where a kill -9 lands: at a time, or at the process's next such step after it. */
export type KillMoment = 'any' | 'post' | 'batch' | 'look' | 'digest' | 'commit';

export type TimedFault =
  | {
      readonly kind: 'kill';
      readonly at: number;
      /** Replica slot. */
      readonly slot: number;
      readonly moment: KillMoment;
      /** For `commit`: before or after the head write that makes the commit current. */
      readonly phase: 'before' | 'after';
      /** The supervisor's restart delay; null: the replica stays dead (others take its projects). */
      readonly restartAfterMs: number | null;
    }
  /** SIGSTOP on a replica for `forMs` (past its lease when longer than the lease's life). */
  | { readonly kind: 'pause'; readonly at: number; readonly slot: number; readonly forMs: number }
  | { readonly kind: 'store-outage'; readonly at: number; readonly forMs: number }
  /** SIGSTOP on Redis. */
  | { readonly kind: 'store-pause'; readonly at: number; readonly forMs: number }
  | {
      readonly kind: 'access';
      readonly at: number;
      readonly platform: Platform;
      readonly channel: string;
      readonly problem: 'not_in_channel' | 'is_archived' | 'missing-permissions';
      readonly forMs: number;
      /** The platform tells the bot when access returns (member_joined_channel, CHANNEL_UPDATE). */
      readonly eventOnReturn: boolean;
    }
  | {
      readonly kind: 'api';
      readonly at: number;
      readonly fault: '5xx' | '429' | 'slow' | 'shift' | 'malformed';
      readonly n: number;
    };

/**
 * A stretch in which the platform's events for the bot's own messages are lost: a Socket Mode or gateway
 * connection down (one process's, `slot`; or the platform's event delivery for every process).
 */
export interface EventsLost {
  readonly platform: Platform;
  /** Replica slot whose connection is down; undefined: every process. */
  readonly slot?: number;
  readonly from: number;
  readonly to: number;
}

/** How the platforms' own-message events (Slack `message`, Discord `MESSAGE_CREATE`) reach the processes. */
export interface OwnEvents {
  /** Delay from a landing to its event, drawn per event between these (ms). */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** A process's connection is up this long after it starts (events before are not its own). */
  readonly connectMs: number;
  readonly lost: readonly EventsLost[];
}

export interface ChaosChannel {
  readonly platform: Platform;
  readonly id: string;
  readonly pacing: 'live' | 'auto' | 'batched';
  readonly dailyThread: boolean;
  readonly digest: boolean;
}

export interface Arrival {
  readonly at: number;
  readonly name: string;
}

/** Everything one seed decides before it runs. */
export interface Schedule {
  readonly seed: number;
  readonly start: number;
  /** Epoch ms the world stops and the judge reads the channels. */
  readonly end: number;
  readonly replicas: number;
  readonly channels: readonly ChaosChannel[];
  readonly arrivals: readonly Arrival[];
  readonly faults: readonly TimedFault[];
  readonly storms: readonly Storm[];
  readonly weather: Weather;
  /** The digest's `HH:MM` (UTC), inside the seed's time. */
  readonly digestTime: string;
  /** How long Discord dedupes a nonce (it says "a few minutes"). */
  readonly nonceWindowMs: number;
  readonly ownEvents: OwnEvents;
}

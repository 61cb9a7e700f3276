import type { NoticeKind } from '../domain/events.js';
import type { NeutralMessage } from './message.js';

export type {
  Cached,
  EngineStatus,
  FeedStatus,
  HistoryPoint,
  ProjectReadModel,
  WatchedProject,
} from '../domain/read-model.js';

/** Where a notice goes. */
export interface ChannelRef {
  readonly platform: 'discord' | 'slack' | 'console';
  /** Discord guild id or Slack team id; 'console' for the terminal. */
  readonly workspaceId: string;
  readonly channelId: string;
}

/** What the platform answered for a posted message. */
export interface PostReceipt {
  /**
   * The platform's id of the message: Slack `ts`, Discord message id. Opaque to the
   * core: an adapter may qualify it (Discord: `<thread id>/<message id>` for a reply in
   * a thread, which lives in the thread's own channel), and `edit` takes it back as is.
   */
  readonly messageId: string;
}

/**
 * A thread inside a channel that a message goes into instead of the channel itself
 * (the daily thread). Its ids come from the store, so a restarted process posts into
 * the same thread.
 */
export interface ThreadTarget {
  /** The thread's parent message in the channel: Slack `thread_ts`, Discord message id. */
  readonly parentMessageId: string;
  /** Discord: the thread's own channel id (a thread started on a message shares its id). */
  readonly threadId?: string;
}

/**
 * Implemented by each adapter: posts a rendered message into a channel.
 * `idempotencyKey` is derived from the event id (Discord nonce, Slack metadata).
 *
 * Errors: {@link ChannelUnavailableError} (final), {@link DeliveryNotPostedError}
 * (the answer proves nothing was posted); anything else leaves the delivery in
 * doubt, and the notice router asks {@link ChannelPoster.findPosted} before posting again.
 */
export interface ChannelPoster {
  readonly platform: ChannelRef['platform'];
  /**
   * How long after an attempt began it may still land in the channel (the post's
   * own timeout plus a margin). The router neither retries nor looks before: a
   * look taken earlier could miss a message that arrives a second later. Default 0.
   */
  readonly inDoubtSettleMs?: number;
  // Posters that cannot name the message (the console) resolve with nothing.
  post(
    channel: ChannelRef,
    message: NeutralMessage,
    idempotencyKey: string,
    /** Post as a reply in this thread of the channel (posters without threads post in the channel). */
    thread?: ThreadTarget,
    // biome-ignore lint/suspicious/noConfusingVoidType: adapters without message ids return void
  ): Promise<PostReceipt | void>;
  /**
   * Opens the thread of a posted message (Discord: Start Thread from Message; Slack
   * needs none, a reply names its parent). Idempotent: a thread that already exists
   * on the message is returned, so a restart never opens a second one.
   */
  startThread?(channel: ChannelRef, parentMessageId: string, name: string): Promise<ThreadTarget>;
  /**
   * Resolves a delivery in doubt by looking: the message carrying `idempotencyKey`
   * posted at or after `attemptStartedAt` (its receipt), or undefined when posting
   * again cannot duplicate it (it is certainly not there, or the platform dedupes
   * a repeat). Throws a retryable error when it cannot tell yet (rate limit): the
   * delivery then waits, it is never posted blind. A poster without this method
   * declares a repeat harmless.
   */
  /**
   * Replaces a message this poster posted (a correction, a batch with a name taken
   * back). Mentions stay off and text stays escaped, as in `post`. Editing to the
   * same content twice is harmless, so a retried edit needs no ledger.
   */
  edit?(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void>;
  findPosted?(
    channel: ChannelRef,
    idempotencyKey: string,
    attemptStartedAt: number,
    message: NeutralMessage,
    /** Where the post went: the look reads the thread's replies, not the channel. */
    thread?: ThreadTarget,
  ): Promise<PostReceipt | undefined>;
}

/** A channel's subscription to one project's notices. */
export interface Subscription {
  readonly project: string;
  readonly channel: ChannelRef;
  readonly kinds: readonly NoticeKind[];
  readonly createdBy: string;
  readonly createdAt: number;
  /** When each kind was added (epoch ms); absent in records written before it existed (use createdAt). */
  readonly kindsAddedAt?: Readonly<Partial<Record<NoticeKind, number>>> | undefined;
}

/** Kept in the injected store, so every replica routes notices the same way. */
export interface SubscriptionStore {
  /** Adds kinds to the channel's subscription of the project (creating it). */
  subscribe(
    channel: ChannelRef,
    project: string,
    kinds: readonly NoticeKind[],
    by: string,
  ): Promise<Subscription>;
  /** Removes kinds (all when omitted); returns what is left, or undefined when nothing is. */
  unsubscribe(
    channel: ChannelRef,
    project: string,
    kinds?: readonly NoticeKind[],
  ): Promise<Subscription | undefined>;
  forChannel(channel: ChannelRef): Promise<readonly Subscription[]>;
  /** The channels that want this kind of notice of this project. */
  forProject(project: string, kind: NoticeKind): Promise<readonly Subscription[]>;
  /** Removes every subscription in a server/workspace (the app was uninstalled there); returns how many. */
  removeWorkspace(workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>): Promise<number>;
  /**
   * True the first time it is asked for this channel and project, false ever after
   * (remembered in the store, also across unsubscribing): the "now watching"
   * summary is posted once per channel and project.
   */
  claimWatchingAnnouncement(channel: ChannelRef, project: string): Promise<boolean>;
}

/** Why the bot cannot post in a channel. */
export type ChannelAccessProblem = 'not-member' | 'no-permission' | 'archived' | 'unknown';

/** A permission the bot needs to post notices (Discord names them; Slack has none of these). */
export type ChannelPermission =
  | 'view-channel'
  | 'send-messages'
  | 'send-messages-in-threads'
  | 'embed-links'
  | 'attach-files';

export type ChannelAccessResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: ChannelAccessProblem;
      /** For 'no-permission': what to grant, when the platform says. */
      readonly missing?: readonly ChannelPermission[];
    };

/**
 * Implemented by each chat adapter: whether the bot can post notices in a channel
 * now (Slack: membership and archive state; Discord: the bot's permissions there).
 * /subscribe asks before storing anything. One platform request per call at most.
 * Never throws for a platform's "no": that is a result; it may throw when the
 * platform cannot be asked (the caller then treats it as 'unknown').
 */
export interface ChannelAccess {
  canPost(channel: ChannelRef): Promise<ChannelAccessResult>;
}

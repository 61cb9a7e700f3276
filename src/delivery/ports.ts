import type { ChannelRef } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';

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
 * (the daily thread, a batch's list of names). Its ids come from the store, so a
 * restarted process posts into the same thread.
 */
export interface ThreadTarget {
  /** The thread's parent message in the channel: Slack `thread_ts`, Discord message id. */
  readonly parentMessageId: string;
  /** Discord: the thread's own channel id (a thread started on a message shares its id). */
  readonly threadId?: string;
}

/**
 * Implemented by each adapter: posts a rendered message into a channel, and registers
 * itself with the delivery pipeline (`Delivery.registerPoster`).
 * `idempotencyKey` is derived from the delivery's id (Discord nonce, Slack metadata).
 *
 * Errors: {@link ChannelUnavailableError} (the bot cannot post there now: the channel
 * is held until access returns), {@link DeliveryNotPostedError} (the answer proves
 * nothing was posted); anything else leaves the delivery IN DOUBT, and the pipeline
 * resolves it through {@link ChannelPoster.doubt} before it posts again.
 */
export interface ChannelPoster {
  readonly platform: ChannelRef['platform'];
  // Posters that cannot name the message (the console) resolve with nothing.
  post(
    channel: ChannelRef,
    message: NeutralMessage,
    idempotencyKey: string,
    /** Post as a reply in this thread of the channel (posters without threads post in the channel). */
    thread?: ThreadTarget,
    /**
     * When this attempt began (its ledger record's `attemptStartedAt`): a poster whose messages can carry it
     * (Slack, in the key's block id) does, so a copy that lands late tells which attempt it is of.
     */
    attemptAt?: number,
    // biome-ignore lint/suspicious/noConfusingVoidType: adapters without message ids return void
  ): Promise<PostReceipt | void>;
  /**
   * How replies to a message are posted: `replies` (Slack: name the parent's `ts`),
   * `start-thread` (Discord: open a thread on the message first, {@link startThread}).
   * Absent: no threads (the console); what would go into a thread follows as messages.
   */
  readonly threads?: 'replies' | 'start-thread';
  /**
   * Opens the thread of a posted message (Discord: Start Thread from Message; Slack
   * needs none, a reply names its parent). Idempotent: a thread that already exists
   * on the message is returned, so a restart never opens a second one.
   */
  startThread?(channel: ChannelRef, parentMessageId: string, name: string): Promise<ThreadTarget>;
  /**
   * Replaces a message this poster posted (a correction, a batch with a name taken
   * back). Mentions stay off and text stays escaped, as in `post`. Editing to the
   * same content twice is harmless, so a retried edit needs no ledger.
   */
  edit?(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void>;
  /**
   * Deletes a message this poster posted: an EXTRA copy of a delivery (a post the platform landed late, after
   * the pipeline had posted it again; the ledger's copy is never removed). A message already gone resolves.
   * Absent: extra copies stay (logged).
   */
  remove?(channel: ChannelRef, messageId: string): Promise<void>;
  /**
   * How a post left in doubt can be decided on this platform. A poster without it
   * (the console) declares a repeat harmless: the pipeline simply posts again.
   */
  readonly doubt?: DoubtSupport;
}

/**
 * The platform's part of resolving a delivery in doubt; the pipeline's doubt
 * resolver (doubt-resolver.ts) holds the rules, the shared look budget and what
 * earlier looks showed, so a replica taking over continues where another stopped.
 */
export interface DoubtSupport {
  /**
   * How long after an attempt began it may still land (the post's own timeout plus
   * a margin): no look is trusted, and nothing is posted again, before then.
   */
  readonly settleMs: number;
  /**
   * How far this platform's clock (message times) and ours may disagree, as the poster
   * measured it on its posts; a look reaches this much around where a post can be.
   * Absent: the resolver's conservative default (60 s).
   */
  readonly clockMarginMs?: number;
  /**
   * Until this long after an attempt began, posting again with the same
   * idempotency key cannot duplicate it (Discord's nonce window with
   * `enforce_nonce`): the repeat IS the check. 0 where nothing dedupes (Slack).
   */
  readonly repeatSafeMs: number;
  /**
   * Messages one look shows when its page lists the NEWEST first (Slack: 15 for apps
   * outside the Marketplace): a span busier than that shows its oldest part, where a
   * received post lands, only on a later page, a budget interval later. The resolver then
   * reads that part first. Absent: a page starts at the span's oldest end (Discord reads
   * oldest first), and a look reads the whole span.
   */
  readonly newestFirstPageSize?: number;
  /**
   * How late a post the platform took may still land, as far as the pipeline waits for it: while no witness
   * (the platform's own-message events, see witness.ts) is live for the workspace, a doubt is not decided
   * absent before a look has covered this long after its attempt began, so a post landing that late is found
   * instead of posted again. 0 or absent: no wait (a repeat is deduped, or a later look finds a copy within
   * seconds). Never applied after the platform answered (a 5xx): it did what it did before answering.
   */
  readonly lateLandingMs?: number;
  /**
   * What the platform's own-message events name a delivery by when they cannot carry its key (Discord: the
   * nonce derived from it). Absent: the events carry the key itself.
   */
  markOf?(idempotencyKey: string): string;
  /**
   * Which rate limit a look draws from, and how often it may be spent (Slack:
   * conversations.history/replies per workspace, about once a minute for apps
   * outside the Marketplace; Discord: the channel's message list).
   */
  lookBudget(channel: ChannelRef, thread: ThreadTarget | undefined): LookBudget;
  /** One look, one platform call: the bot's messages in the channel (or thread) within the span. */
  look(channel: ChannelRef, request: LookRequest, thread: ThreadTarget | undefined): Promise<LookPage>;
}

export interface LookBudget {
  /** The budget's name, shared by every replica (a claim in the store). */
  readonly scope: string;
  /** At most one look per this many ms in the scope. */
  readonly intervalMs: number;
}

export interface LookRequest {
  /** Epoch ms: the look reaches back to here (the earliest doubtful attempt, minus a clock margin). */
  readonly from: number;
  /** Epoch ms: the look's upper bound (when a continued look began, else now). */
  readonly to: number;
  /** Continues an incomplete look (more messages than one call returns). */
  readonly cursor?: string;
  /**
   * The deliveries looked for, with the message each carries (Discord matches embeds); a key may come more
   * than once, one entry per rendering its attempts carried (a repeat says it is late).
   */
  readonly wanted: readonly { readonly key: string; readonly message: NeutralMessage }[];
}

export interface LookPage {
  /** Idempotency keys of this bot's messages the page showed, with their message ids. */
  readonly found: ReadonlyMap<string, string>;
  /** Every copy of a wanted delivery the page showed (a late landing beside the repost: two). */
  readonly copies?: readonly { readonly key: string; readonly messageId: string }[];
  /**
   * The span (epoch ms) the page showed completely: the whole request when it was
   * the last page, else up to the oldest (Slack, newest first) or newest (Discord,
   * oldest first) message it returned; `cursor` continues from there.
   */
  readonly covered: { readonly from: number; readonly to: number };
  readonly cursor?: string;
  /**
   * How many messages (anyone's, not only the bot's) the page showed within `covered`:
   * the channel's pace, which picks the span of the next look. Absent when unknown.
   */
  readonly shown?: number;
}

/**
 * One of the bot's own messages, as the platform's events showed it to an adapter (Slack `message` events,
 * Discord `MESSAGE_CREATE`): a witness that a delivery landed, independent of the look budget.
 */
export interface Sighting {
  /** The subscribed channel the message is in (a reply in a thread: the thread's channel). */
  readonly channel: ChannelRef;
  /** The delivery's idempotency key, when the message carries it (Slack). */
  readonly key?: string;
  /** Else the platform's mark of it ({@link DoubtSupport.markOf}: Discord's nonce). */
  readonly mark?: string;
  /** The message's id as the ledger keeps it (Discord: `<thread>/<message>` for a reply in a thread). */
  readonly messageId: string;
  /** When the message landed, on the platform's clock (epoch ms). */
  readonly at: number;
  /** When the attempt that posted it began, when the message carries it (Slack): see `ChannelPoster.post`. */
  readonly attemptAt?: number;
}

/** A project's supporter count and funding total at one read. */
export interface ProjectFigures {
  readonly supporterCount: number;
  readonly fundingTotal: number;
  /** Epoch ms of the read. */
  readonly readAt: number;
}

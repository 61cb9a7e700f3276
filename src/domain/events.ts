import type { FeedName } from './feeds.js';
import type { NoticeKind } from './notice-kinds.js';

/**
 * The events fundbot emulates on top of a polling-only API. They carry only
 * public data (display names, wall messages, blog teasers): never order or
 * subscriber data, never supporter-only blog content. All text fields are
 * untrusted plain text; renderers escape them for their platform.
 */

export { isNoticeKind, type NoticeKind, noticeKinds } from './notice-kinds.js';

interface EventBase {
  /** Stable id derived from the source entry's stable key: the idempotency key for delivery. */
  readonly id: string;
  /** The project's link_caption. */
  readonly project: string;
  /** When it happened on the platform (epoch ms), as far as the API tells. */
  readonly occurredAt: number;
  /** When fundbot noticed it (epoch ms): notice latency is detectedAt - occurredAt. */
  readonly detectedAt: number;
}

export interface SupporterEvent extends EventBase {
  readonly type: 'supporter';
  readonly displayName: string;
  /**
   * The project's `supporter_count` read in the same cycle, on the newest supporter of
   * the cycle only; null when not read. Never a list position: a failed payment leaves
   * the public list, so positions repeat and go backwards ("Supporter #29" twice).
   * (Events stored before this field existed lack it: read it as `?? null`.)
   */
  readonly supporterCount: number | null;
  /** Funding total after this support, when known. */
  readonly fundingTotal: number | null;
  readonly currency: string;
  /** The funding entry's stable key (support_timestamp + user id), for audits and idempotency. */
  readonly entryKey?: string;
}

/** Several supporters coalesced into one notice (restart catch-up or a burst). */
export interface SupporterBurstEvent extends EventBase {
  readonly type: 'supporter-burst';
  readonly count: number;
  /**
   * The names, newest first: every one (events stored before every name was kept
   * carry the first five; the rest are counted in `count`).
   */
  readonly displayNames: readonly string[];
  /** Where the names that do not fit the message are listed (see NoticeBatchEvent). */
  readonly restNamedIn?: 'thread' | 'messages';
  /** The project's `supporter_count` read in the same cycle, or null. */
  readonly supporterCount: number | null;
  readonly fundingTotal: number | null;
  readonly currency: string;
  /** Stable keys of every coalesced entry: a burst announces each of them exactly once. */
  readonly entryKeys?: readonly string[];
}

export interface WallPostEvent extends EventBase {
  readonly type: 'wall-post';
  readonly postId: number;
  readonly author: string;
  /** Plain text, shortened. */
  readonly message: string;
}

export interface WallPostBurstEvent extends EventBase {
  readonly type: 'wall-post-burst';
  readonly count: number;
  readonly authors: readonly string[];
  /** Ids of every coalesced wall post: a burst announces each of them exactly once. */
  readonly postIds?: readonly number[];
}

export interface BlogPostEvent extends EventBase {
  readonly type: 'blog-post';
  readonly postId: number;
  readonly title: string;
  readonly blogType: 'text' | 'story';
  readonly link: string;
  readonly supporterOnly: boolean;
  /** Public teaser only (plain text); never the content of a supporter-only post. */
  readonly teaser: string;
}

export interface MilestoneEvent extends EventBase {
  readonly type: 'milestone';
  /** Percentage of the goal crossed, e.g. 50. */
  readonly percent: number;
  /** True for the 100% milestone of an all-or-nothing project. */
  readonly goalReached: boolean;
  readonly funding: number;
  readonly goal: number;
  readonly currency: string;
}

export interface RewardSoldOutEvent extends EventBase {
  readonly type: 'reward-sold-out';
  readonly rewardId: number;
  readonly title: string;
  readonly price: number;
  readonly currency: string;
}

export interface RewardUnlockedEvent extends EventBase {
  readonly type: 'reward-unlocked';
  readonly rewardId: number;
  readonly title: string;
  readonly price: number;
  readonly currency: string;
}

/** A reward that was sold out can be ordered again (a cancelled support, more stock). */
export interface RewardRestockedEvent extends EventBase {
  readonly type: 'reward-restocked';
  readonly rewardId: number;
  readonly title: string;
  readonly price: number;
  readonly currency: string;
  /** How many are left now; null for a reward without a limit. */
  readonly remaining: number | null;
}

/**
 * A limited reward's remaining count went down between two reads, to at most
 * {@link lowStockMaxThreshold} (reward-stock.ts). Every channel decides by its own
 * threshold whether this is the drop that crosses it ({@link crossesLowStock}).
 */
export interface RewardLowStockEvent extends EventBase {
  readonly type: 'reward-low-stock';
  readonly rewardId: number;
  readonly title: string;
  readonly price: number;
  readonly currency: string;
  /** Left at the read before. */
  readonly remainingBefore: number;
  /** Left now (at least 1: none left is the sold-out notice). */
  readonly remaining: number;
}

export interface ProjectStatusEvent extends EventBase {
  readonly type: 'project-status';
  readonly from: string | null;
  /** started, active, successful, or `payoff` for a paid-out project. */
  readonly to: string;
}

/** The single "now watching" summary a first run may post instead of history. */
export interface WatchingEvent extends EventBase {
  readonly type: 'watching';
  readonly title: string;
  readonly funding: number;
  readonly goal: number;
  readonly currency: string;
  readonly supporters: number;
}

/**
 * Notices held back by a channel's pacing or quiet hours, posted as ONE message
 * into ONE channel (`channel`, a channelKey). Its id is derived from the channel
 * and the batch window, so the delivery ledger posts it exactly once.
 */
export interface NoticeBatchEvent extends EventBase {
  readonly type: 'notice-batch';
  /** The kind of the held notices (a batch never mixes kinds). */
  readonly kind: NoticeKind;
  /** channelKey() of the only channel the batch is for. */
  readonly channel: string;
  /** Why it was held: the channel's pacing, its quiet hours, or the bot could not post there. */
  readonly reason: 'paced' | 'quiet-hours' | 'no-access';
  /** Epoch ms of the batch window's start ("since 14:05"). */
  readonly since: number;
  /** How many supporters / posts the batch stands for (drops already taken out). */
  readonly count: number;
  /** Supporter names, wall authors or blog titles, oldest first (plain text, bounded). */
  readonly names: readonly string[];
  /**
   * Where the names that do not fit the message are listed: its thread, or
   * follow-up messages (platforms without threads). Absent: they are only counted.
   */
  readonly restNamedIn?: 'thread' | 'messages';
  /** Names taken back after the batch was posted (a failed payment, a deleted post). */
  readonly withdrawn?: readonly string[];
  /** The project's supporter_count read with the newest held supporter, or null. */
  readonly supporterCount: number | null;
  /**
   * Epoch ms the count and total were read (the newest held supporter's cycle): the
   * batch is posted up to a window later, so it says "as of 14:09", never "now".
   */
  readonly countedAt?: number;
  readonly fundingTotal: number | null;
  /** The total stated by the channel's previous supporter message, for "(+€310)"; null when unknown. */
  readonly fundingBefore: number | null;
  readonly currency: string;
}

/**
 * The parent message of a channel's daily thread (`/thread on`): one a day per
 * project and channel, posted with the day's first supporter notice and edited in
 * place as the thread grows. Its id is `thread-parent:{project}:{date}:{channel}`,
 * so the delivery ledger posts it exactly once; edits render the same event with
 * newer figures.
 */
export interface DailyThreadEvent extends EventBase {
  readonly type: 'daily-thread';
  /** channelKey() of the only channel the parent is for. */
  readonly channel: string;
  /** The project's local day, YYYY-MM-DD. */
  readonly date: string;
  /** Supporters announced in the thread so far today (drops already taken out). */
  readonly count: number;
  /** The names of the latest reply (plain text, untrusted, bounded by the renderer). */
  readonly latest: readonly string[];
  /** The project's supporter_count read with the newest supporter, or null. */
  readonly supporterCount: number | null;
  readonly fundingTotal: number | null;
  /** The funding goal, for the progress bar; null when unknown or none. */
  readonly goal: number | null;
  readonly currency: string;
}

/**
 * The rest of a batch's or a burst's names, in its thread (or follow-up messages):
 * every supporter is named, and the count and the names agree.
 */
export interface NamesContinuedEvent extends EventBase {
  readonly type: 'names-continued';
  readonly kind: NoticeKind;
  /** Plain text, already bounded and cleaned by the split that made the parts. */
  readonly names: readonly string[];
  /** This message's place among the continuations (1-based) and how many there are. */
  readonly part: number;
  readonly parts: number;
}

/** A support that left the public list before payout (a failed or cancelled payment). */
export interface SupportDroppedEvent extends EventBase {
  readonly type: 'support-dropped';
  /** The id of the supporter notice that announced it. */
  readonly originalEventId: string;
  readonly entryKey: string;
  readonly displayName: string;
}

/** A wall post or blog post deleted after it was announced. */
export interface PostDeletedEvent extends EventBase {
  readonly type: 'post-deleted';
  readonly feed: 'wall' | 'blog';
  readonly originalEventId: string;
  readonly postId: number;
  /** The wall post's author or the blog post's title (plain text, bounded). */
  readonly label: string;
}

/** Why a feed stopped, as a channel hears it (never an error's own text, never the key). */
export type FeedStopCause = 'key-rejected' | 'key-wrong-project' | 'scope-missing' | 'unreachable';

/** What stopped and why (domain/feed-health.ts). `subject` names it: `key`, `api`, or `scope:<feed>`. */
export interface FeedStop {
  readonly subject: string;
  /** One feed, or `all` when the whole project stopped (a refused key, the API out of reach). */
  readonly feed: FeedName | 'all';
  readonly cause: FeedStopCause;
  /** The missing scope (`scope-missing`). */
  readonly scope?: string;
  /** The key came from a workspace's connect command: a workspace admin fixes it, not the operator. */
  readonly connected?: true;
}

/**
 * A feed the channel relies on stopped (held a few minutes first: domain/feed-health.ts), or resumed after its
 * stop was said. Its id derives from the stop's subject and start, so each is posted once per channel.
 */
export interface FeedHealthEvent extends EventBase {
  readonly type: 'feed-health';
  readonly change: 'stopped' | 'resumed';
  readonly stop: FeedStop;
  /** Epoch ms the stop began. */
  readonly since: number;
  /** The notice kinds the stop silences: the channels subscribed to any of them hear it. */
  readonly kinds: readonly NoticeKind[];
}

/** Events that take back an earlier notice: they edit it, they never post. */
export type CorrectionEvent = SupportDroppedEvent | PostDeletedEvent;

export type FundbotEvent =
  | NoticeBatchEvent
  | NamesContinuedEvent
  | DailyThreadEvent
  | SupportDroppedEvent
  | PostDeletedEvent
  | SupporterEvent
  | SupporterBurstEvent
  | WallPostEvent
  | WallPostBurstEvent
  | BlogPostEvent
  | MilestoneEvent
  | RewardSoldOutEvent
  | RewardUnlockedEvent
  | RewardRestockedEvent
  | RewardLowStockEvent
  | ProjectStatusEvent
  | WatchingEvent
  | FeedHealthEvent;

export type FundbotEventType = FundbotEvent['type'];

/** Which subscription a notice is routed by. */
export function noticeKindOf(event: FundbotEvent): NoticeKind {
  switch (event.type) {
    case 'notice-batch':
    case 'names-continued':
      return event.kind;
    case 'daily-thread':
      return 'supporters';
    case 'support-dropped':
      return 'supporters';
    case 'post-deleted':
      return event.feed;
    case 'supporter':
    case 'supporter-burst':
      return 'supporters';
    case 'wall-post':
    case 'wall-post-burst':
      return 'wall';
    case 'blog-post':
      return 'blog';
    case 'milestone':
    case 'project-status':
    case 'watching':
      return 'milestones';
    case 'reward-sold-out':
    case 'reward-unlocked':
    case 'reward-restocked':
    case 'reward-low-stock':
      return 'rewards';
    case 'feed-health':
      return event.kinds[0] ?? 'supporters';
  }
}

/** Every kind whose subscribers hear the event: one for most, each kind a stopped feed silences for feed health. */
export function noticeKindsOf(event: FundbotEvent): readonly NoticeKind[] {
  return event.type === 'feed-health' ? event.kinds : [noticeKindOf(event)];
}

/** Whether the event takes back an earlier notice (see {@link CorrectionEvent}). */
export function isCorrection(event: FundbotEvent): event is CorrectionEvent {
  return event.type === 'support-dropped' || event.type === 'post-deleted';
}

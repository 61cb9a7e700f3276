/**
 * The events fundbot emulates on top of a polling-only API. They carry only
 * public data (display names, wall messages, blog teasers): never order or
 * subscriber data, never supporter-only blog content. All text fields are
 * untrusted plain text; renderers escape them for their platform.
 */

/** The kinds a channel can subscribe to. */
export const noticeKinds = ['supporters', 'wall', 'blog', 'milestones', 'rewards', 'digest'] as const;
export type NoticeKind = (typeof noticeKinds)[number];

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
  /** The first few names, newest first; the rest are counted in `count`. */
  readonly displayNames: readonly string[];
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

export type FundbotEvent =
  | SupporterEvent
  | SupporterBurstEvent
  | WallPostEvent
  | WallPostBurstEvent
  | BlogPostEvent
  | MilestoneEvent
  | RewardSoldOutEvent
  | RewardUnlockedEvent
  | ProjectStatusEvent
  | WatchingEvent;

export type FundbotEventType = FundbotEvent['type'];

/** Which subscription a notice is routed by. */
export function noticeKindOf(event: FundbotEvent): NoticeKind {
  switch (event.type) {
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
      return 'rewards';
  }
}

import type { NoticeKind } from '../domain/events.js';

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
  /** The channels that want this kind of notice of this project (any kind when `kind` is omitted). */
  forProject(project: string, kind?: NoticeKind): Promise<readonly Subscription[]>;
  /** Removes every subscription in a server/workspace (the app was uninstalled there); returns how many. */
  removeWorkspace(workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>): Promise<number>;
  /**
   * True the first time it is asked for this channel and project, false ever after
   * (remembered in the store, also across unsubscribing): the "now watching"
   * summary is posted once per channel and project.
   */
  claimWatchingAnnouncement(channel: ChannelRef, project: string): Promise<boolean>;
}

/**
 * Why the bot cannot post in a channel: not invited (or removed), a permission
 * missing, the channel archived or deleted, the platform token revoked, or the
 * platform could not be asked.
 */
export type ChannelAccessProblem =
  | 'not-member'
  | 'no-permission'
  | 'archived'
  | 'gone'
  | 'token-revoked'
  | 'unknown';

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

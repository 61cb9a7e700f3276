import type { ChannelRef } from '../domain/channels.js';
import type { NoticeKind } from '../domain/events.js';

export type {
  ChannelAccess,
  ChannelAccessProblem,
  ChannelAccessResult,
  ChannelPermission,
  ChannelRef,
} from '../domain/channels.js';

export type {
  Cached,
  EngineStatus,
  FeedStatus,
  HistoryPoint,
  ProjectReadModel,
  WatchedProject,
} from '../domain/read-model.js';

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

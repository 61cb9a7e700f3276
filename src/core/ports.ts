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

/**
 * Implemented by each adapter: posts a rendered message into a channel.
 * `idempotencyKey` is derived from the event id (Discord nonce, Slack metadata).
 */
export interface ChannelPoster {
  readonly platform: ChannelRef['platform'];
  post(channel: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<void>;
}

/** A channel's subscription to one project's notices. */
export interface Subscription {
  readonly project: string;
  readonly channel: ChannelRef;
  readonly kinds: readonly NoticeKind[];
  readonly createdBy: string;
  readonly createdAt: number;
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
}

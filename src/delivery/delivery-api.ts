import type {
  ChannelAccessStates,
  CommandCore,
  DailyThreadSettings,
  LowStockSettings,
  NoticeRulesSettings,
  PacingSettings,
  SubscriptionStore,
} from '../core/index.js';
import type { ChannelAccess, ChannelRef } from '../domain/channels.js';
import type { EventSink } from '../domain/event-sink.js';
import type { CorrectionEvent } from '../domain/events.js';
import type { WarningLogger } from '../domain/logger.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { TracedNotice } from '../domain/notice-trace.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { Random } from '../lib/random.js';
import type { KeyValueStore } from '../lib/store.js';
import type { DeliveryObserver } from './delivery-observer.js';
import type { ItemOutcome } from './lane-item.js';
import type { BatchRecord } from './pacing/batch-record.js';
import type { ChannelPoster, ProjectFigures, Sighting } from './ports.js';

/** What the pipeline offers the composition root, and what it needs from it. */

export interface DeliveryOptions {
  /** Delivery's own records: the ledger, batches, looks, pacing counts (`deliveries/` in the bot). */
  readonly store: KeyValueStore;
  /** The settings view commands write through (change-stamped, see src/lib/change-stamp.ts) and its stamp key. */
  readonly settingsStore: KeyValueStore;
  readonly settingsStampKey: string;
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor' | 'timeZoneFor'>;
  readonly subscriptions: SubscriptionStore;
  readonly pacing: PacingSettings;
  readonly dailyThreads: DailyThreadSettings;
  /** Each channel's /lowstock threshold: a low-stock drop is placed only where it crosses it. */
  readonly lowStock: LowStockSettings;
  /** Each channel's /ping and /filter rules: a filtered notice is not posted, a chosen kind pings the group. */
  readonly noticeRules?: NoticeRulesSettings;
  readonly access: ChannelAccessStates;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: WarningLogger & { info?: (details: object, message: string) => void };
  /** Once-only claims shared by the replicas (Redis); default an in-process map. */
  readonly claims?: Claims;
  /** How many replicas post into the channels now (the live ones); default 1 (see DoubtResolverOptions). */
  readonly postingReplicas?: () => number;
  readonly observer?: DeliveryObserver;
  /** The zone of the projects' day (the daily thread's date, a late notice's time). Default UTC. */
  readonly timeZone?: string;
  /** The project's funding goal for the daily thread's bar (the engine's cache). */
  readonly goalOf?: (project: string) => Promise<number | undefined>;
  /**
   * The project's supporter count and total as the engine last read them (its cache, no request): the daily
   * thread's parent shows them while the notices of the day carried none (their cycle did not re-read the project).
   */
  readonly figuresOf?: (project: string) => Promise<ProjectFigures | undefined>;
  /** How long one post may hold its channel before the next goes (default 10 s). */
  readonly stallMs?: number;
  /** How long a delivery may keep failing before it is given up (default 24 h). */
  readonly giveUpAfterMs?: number;
  readonly threadEditIntervalMs?: number;
  readonly onBatchPosted?: (batch: BatchRecord) => void;
  /** Told every correction made (an edit, or a name taken out of a held batch). */
  readonly onCorrected?: (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => void;
}

/** The delivery pipeline: see docs/architecture.md for the walk of one supporter through it. */
export interface Delivery {
  /** Each chat adapter registers its poster (and how to check a channel's access) before notices flow. */
  registerPoster(poster: ChannelPoster, access?: ChannelAccess): void;
  /** The engine's outbox port. */
  readonly sink: EventSink;
  /** A post on a schedule (the digest): once per id and channel across replicas and restarts. */
  postScheduled(request: ScheduledPost): Promise<ItemOutcome>;
  /**
   * The channel's last `limit` notices, newest first, with where each stands (the delivery trace, for /notices
   * and /why): store reads only, no platform request.
   */
  recentNotices(channel: ChannelRef, limit: number): Promise<readonly TracedNotice[]>;
  /** The platform says the bot's access to a channel (or a whole server) may have changed: re-check it now. */
  accessMayHaveChanged(scope: ChannelRef | Pick<ChannelRef, 'platform' | 'workspaceId'>): void;
  /**
   * The platform's event showed one of the bot's own messages (Slack `message`, Discord `MESSAGE_CREATE`):
   * a witness that settles doubts and finds extra copies without looks (witness.ts, sighting-intake.ts).
   */
  witnessed(sighting: Sighting): void;
  /**
   * The platform's event stream to this process broke (Slack Socket Mode or the Discord gateway disconnected):
   * until its events flow again, doubts about posts from before are decided by looks, not by silence.
   */
  witnessInterrupted(platform: ChannelRef['platform']): void;
  /**
   * The platform's event stream to this process connected (Slack Socket Mode `connected`, or the HTTP Events API
   * receiving): from then on its silence can speak for posts a dead process left in doubt (stream-cover.ts).
   */
  witnessConnected(platform: ChannelRef['platform']): void;
  /** Loads what the store holds (channels held, batches of the old layout). */
  start(): Promise<void>;
  /** Stops the timers and waits (up to `deadlineMs`) for posts in flight. */
  stop(deadlineMs?: number): Promise<void>;
  /** Resolves once no delivery work is running (timers may be pending): tests wait on it. */
  idle(): Promise<void>;
  /** Epoch ms of the earliest timer (a set-aside post, a batch, a re-check), for a virtual clock's next step. */
  nextWakeAt(): number | undefined;
  /** Channels held because the bot cannot post there, deliveries set aside (for /healthz). */
  status(): DeliveryStatus;
}

export interface ScheduledPost {
  readonly id: string;
  readonly channel: ChannelRef;
  readonly kind: string;
  readonly occurredAt: number;
  /** Epoch ms after which posting it makes no sense any more (a day's digest): given up then. */
  readonly giveUpAt?: number;
  render(): Promise<NeutralMessage>;
  /**
   * Names the message lists only in part (a roll-call): once it is posted, the rest follow in its thread as a
   * batch's do (`splitNames`; Slack replies, a Discord thread, else messages), each once through the ledger.
   */
  readonly namesAfter?: { readonly project: string; readonly names: readonly string[] };
}

export interface DeliveryStatus {
  readonly cannotPost: readonly {
    readonly channel: string;
    readonly reason: string;
    readonly since: number;
  }[];
  /** Deliveries queued or set aside (in doubt, refused for now) in this process. */
  readonly pending: number;
}

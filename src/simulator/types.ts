/**
 * Public types of the platform simulator. Kept in one module so that the test
 * suites, the benchmark and the demo can import them without the server code.
 */
import type { BlogPost, Funding, IncentiveDetail, Project, WallPost } from '../api/schemas/index.js';
import type { Clock } from '../lib/clock.js';
import type { Order, Subscriber } from './personal-data.js';

/** The seven scopes a Project API Key can carry (spec, Authentication 5). */
export const projectScopes = [
  'project:read',
  'incentives:read',
  'blog:read',
  'fundings:read',
  'orders:read',
  'subscribers:read',
  'wall:read',
] as const;
export type ProjectScope = (typeof projectScopes)[number];

/** The scopes a User API Key can carry; `user:read` is always on (spec, Authentication 6). */
export const userScopes = [
  'user:read',
  'user:write',
  'project:read',
  'project:write',
  'contacts:read',
] as const;
export type UserScope = (typeof userScopes)[number];

/** Project plans. Basic and legacy project keys fall back to the no-credential rate limits. */
export type ProjectPlan = 'basic' | 'legacy' | 'pro' | 'premium' | 'enterprise';

/** Order of the time-ordered lists (fundings, wall, blog, orders, subscribers): the spec does not say. */
export type ListOrder = 'newest-first' | 'oldest-first';

/** One rate-limit tier. */
export interface RateLimit {
  readonly perMinute: number;
  readonly perDay: number;
}

/** Rate limits by credential tier; `public` is per IP without a credential (and for basic/legacy keys). */
export interface RateLimits {
  readonly pro: RateLimit;
  readonly premium: RateLimit;
  readonly enterprise: RateLimit;
  readonly user: RateLimit;
  readonly public: RateLimit;
}

/** A variation group of a reward: fixed `choices`, or free text typed by the backer when empty/absent. */
export interface VariantGroupSeed {
  readonly label: string;
  readonly choices?: readonly string[];
}

/** A reward to create. Ids are assigned when absent. */
export interface RewardSeed {
  readonly id?: number;
  readonly title: string;
  /** HTML, as on the platform. */
  readonly description?: string;
  readonly price: number;
  /** 0 = unlimited (the default). */
  readonly quantityTotal?: number;
  readonly status?: 'enabled' | 'hidden';
  readonly addressRequired?: boolean;
  /** Secret until the project's funding goal is reached. */
  readonly hiddenUntilGoalReached?: boolean;
  /** Shown locked until the project's funding reaches this amount. */
  readonly unlockThreshold?: number;
  readonly isInStock?: boolean;
  /** Marks the reward as a favourite (filter `is_favorite` of `/user/me/incentives`). */
  readonly favorite?: boolean;
  /** Number of gallery images (default 1). */
  readonly galleryImages?: number;
  /** Up to three variation groups. */
  readonly variants?: readonly VariantGroupSeed[];
  /** Creation time (epoch ms), used by the `new` sort of `/user/me/incentives`. */
  readonly createdAt?: number;
}

/** Input of {@link SimProjectControls.addSupporter}. */
export interface AddSupporterInput {
  readonly displayName?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  /** Reuse an existing user (a repeat supporter); a new user id is assigned when absent. */
  readonly userId?: number;
  /** Total amount; defaults to the sum of the reward prices (or a small free amount without rewards). */
  readonly amount?: number;
  /** Ordered rewards; repeat an id to order it several times. */
  readonly rewardIds?: readonly number[];
  /** Epoch ms; default: the simulator clock's now. */
  readonly at?: number;
  readonly city?: string;
  readonly country?: string;
  /**
   * A fault of the simulator made this support (the page-shift fault's arrival between two page reads), not the
   * scenario: its history entry says so, so a benchmark can score the scenario's supporters apart.
   */
  readonly madeByFault?: 'shift-between-pages';
}

/** Stable key of a public funding entry (spec: `support_timestamp` plus user). */
export interface FundingKey {
  /** Unix seconds, as in the API. */
  readonly supportTimestamp: number;
  readonly userId: number;
}

export interface AddSubscriberInput {
  /** null = a subscriber without an account (`user: null`). Default: a new user. */
  readonly user?: {
    readonly id?: number;
    readonly firstName?: string;
    readonly lastName?: string;
    readonly isPublic?: boolean;
  } | null;
  readonly newsSubscribed?: boolean;
  readonly at?: number;
}

/** Stable key of a subscriber (spec: `subscribed_timestamp` plus user). */
export interface SubscriberKey {
  readonly subscribedTimestamp: number;
  readonly userId: number | null;
}

export interface AddWallPostInput {
  readonly authorName?: string;
  readonly userId?: number;
  readonly message: string;
  readonly at?: number;
}

export interface AddBlogPostInput {
  readonly title: string;
  /** Full text (may contain HTML). */
  readonly text: string;
  readonly type: 'text' | 'story';
  readonly supporterOnly: boolean;
  /** Public description / teaser; default: derived from the text. Always cut to at most 400 characters. */
  readonly description?: string;
  readonly at?: number;
}

export type TeamRole = 'manager' | 'member';

/** Everything needed to create a project. */
export interface ProjectSeed {
  readonly linkCaption: string;
  readonly id?: number;
  readonly title?: string;
  readonly subtitle?: string;
  readonly teaserText?: string;
  /** new (draft), started, active, successful, or anything else. Default `active`. */
  readonly status?: string;
  readonly processStatus?: string | null;
  readonly currency?: string;
  /** The funding goal. Default 10000. */
  readonly fundingThreshold?: number;
  /** Default true. */
  readonly allOrNothing?: boolean;
  /** Default `pro`. */
  readonly plan?: ProjectPlan;
  readonly likeCount?: number;
  /** Owner user id (default: a new user). */
  readonly ownerId?: number;
  /** Names of users this seed refers to (owner, team), applied before the project is created. */
  readonly users?: readonly (Partial<Omit<SimUser, 'id'>> & { readonly id: number })[];
  readonly team?: readonly { readonly userId: number; readonly role: TeamRole }[];
  readonly activationAt?: number;
  readonly endAt?: number;
  readonly rewards?: readonly RewardSeed[];
  readonly supporters?: readonly AddSupporterInput[];
  readonly subscribers?: readonly AddSubscriberInput[];
  readonly wallPosts?: readonly AddWallPostInput[];
  readonly blogPosts?: readonly AddBlogPostInput[];
}

/** A user known to the simulator (profile of `/user/me`). */
export interface SimUser {
  readonly id: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly displayName: string;
  readonly city: string | null;
  readonly biography: string | null;
  readonly registeredAt: number;
}

/**
 * Ground-truth history of one project, in the order things happened. The
 * benchmark compares the events fundbot emitted against these to count misses
 * and duplicates.
 */
export type SimHistoryEntry =
  | {
      readonly type: 'supporter';
      readonly at: number;
      readonly key: FundingKey;
      readonly displayName: string;
      readonly amount: number;
      readonly fundingTotal: number;
      readonly supporterNumber: number;
      /** Set when a fault made this support (see {@link AddSupporterInput.madeByFault}). */
      readonly madeByFault?: 'shift-between-pages';
    }
  | {
      readonly type: 'support-failed';
      readonly at: number;
      readonly key: FundingKey;
      readonly fundingTotal: number;
    }
  | { readonly type: 'wall-post'; readonly at: number; readonly id: number; readonly authorName: string }
  | { readonly type: 'wall-post-removed'; readonly at: number; readonly id: number }
  | {
      readonly type: 'blog-post';
      readonly at: number;
      readonly id: number;
      readonly blogType: 'text' | 'story';
      readonly supporterOnly: boolean;
    }
  | { readonly type: 'subscriber'; readonly at: number; readonly key: SubscriberKey }
  | { readonly type: 'reward-sold-out'; readonly at: number; readonly rewardId: number }
  | { readonly type: 'reward-back-in-stock'; readonly at: number; readonly rewardId: number }
  | { readonly type: 'reward-unlocked'; readonly at: number; readonly rewardId: number }
  | { readonly type: 'goal-reached'; readonly at: number; readonly fundingTotal: number }
  | {
      readonly type: 'milestone';
      readonly at: number;
      readonly percent: number;
      readonly fundingTotal: number;
    }
  | { readonly type: 'status'; readonly at: number; readonly from: string; readonly to: string }
  | { readonly type: 'payoff'; readonly at: number };

/**
 * A copy of a project's full state, exactly as an entitled caller would read it.
 * All arrays are in CHRONOLOGICAL order (oldest first) whatever `listOrder` is.
 */
export interface ProjectSnapshot {
  /** Full (keyed) view, including `process_status`. */
  readonly project: Project & Record<string, unknown>;
  /** All rewards with their variation fields, by id. */
  readonly rewards: readonly IncentiveDetail[];
  /** Public funding entries of supports currently in status success. */
  readonly fundings: readonly Funding[];
  readonly wall: readonly WallPost[];
  /** Both blog types, unredacted. */
  readonly blog: readonly BlogPost[];
  /** Orders in status success. */
  readonly orders: readonly Order[];
  readonly subscribers: readonly Subscriber[];
  /** Keys of supports that failed and dropped out. */
  readonly failedSupports: readonly FundingKey[];
  readonly history: readonly SimHistoryEntry[];
}

/** One logged request. The credential itself is never stored, only its kind. */
export interface RequestLogEntry {
  /** Epoch ms on the simulator clock when the request arrived. */
  readonly at: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly status: number;
  readonly credential: 'project' | 'user' | 'none' | 'invalid';
  /** Name of the fault that shaped the response, if any. */
  readonly fault?: string;
}

/**
 * A reply as the simulator hands it to the socket, told to {@link SimulatorOptions.onReply}: what a client
 * was served and when, so a benchmark can time from the moment data left the platform.
 */
export interface ServedReply {
  /** Epoch ms on the simulator clock when the request arrived. */
  readonly receivedAt: number;
  /** Epoch ms on the simulator clock when the reply was written to the socket. */
  readonly sentAt: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly status: number;
  /** The reply's JSON body as data (the raw text instead, for a fault that sends malformed or HTML text). */
  readonly body: unknown;
}

/**
 * The spec says two things of `GET /project/{lc}` with another project's key: rule 7 of Authentication
 * (`key_project_mismatch`) and rule 1 of the project endpoints ("a request with or without a key that is not
 * entitled to more returns the same public view"). `public-view` (default) serves the public view, as the
 * platform was measured to do (issue 30; a draft still answers 403): then only a list read tells the key is wrong;
 * `mismatch` always answers 403.
 */
export type OtherKeyProjectPage = 'mismatch' | 'public-view';

export interface SimulatorOptions {
  /** All time (timestamps, rate-limit windows, scenario) comes from it. Default: systemClock. */
  clock?: Clock | undefined;
  /** Seed of all randomness. Default 1. */
  seed?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** Default 0 (ephemeral). */
  port?: number | undefined;
  /** Default newest-first. */
  listOrder?: ListOrder | undefined;
  /** What `GET /project/{lc}` answers a Project API Key of another project (see {@link OtherKeyProjectPage}). */
  otherKeyProjectPage?: OtherKeyProjectPage | undefined;
  /** Default: the demo project `solar-kiosk`. Pass [] for none. */
  projects?: readonly ProjectSeed[] | undefined;
  /** Overrides of the spec's default rate limits (per tier), so tests need not send 120 requests. */
  limits?: Partial<RateLimits> | undefined;
  /**
   * The rate-limit day windows start this long before each UTC midnight (default 0): a bench whose
   * client runs on the real clock starts the keys' day just before its run.
   */
  rateLimitDayOffsetMs?: number | undefined;
  /** Public web base for `url` fields. Default https://crowdfunding.example */
  publicBaseUrl?: string | undefined;
  /**
   * Told every reply as it is sent (not a client's hang-up before one). Called on the request's path:
   * keep it cheap, and never modify the body it is handed.
   */
  onReply?: ((reply: ServedReply) => void) | undefined;
}

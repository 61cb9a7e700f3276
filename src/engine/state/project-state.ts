import { z } from 'zod';
import {
  type BlogPost,
  blogPostSchema,
  type Funding,
  fundingSchema,
  type Project,
  projectSchema,
  type WallPost,
  wallPostSchema,
} from '../../api/index.js';
import type { FundbotEvent, FundbotEventType } from '../../domain/events.js';
import type { FeedHealthState } from '../../domain/feed-health.js';
import { type RewardFlags, rewardFlagsSchema } from '../events/reward-diff.js';
import { type ListState, listStateSchema } from '../lists/list-state.js';

/** The lists the engine reads incrementally; the blog has one list per type. */
export const listFeeds = ['fundings', 'wall', 'blogText', 'blogStory'] as const;
export type ListFeed = (typeof listFeeds)[number];

/** An event waiting for delivery. */
export interface OutboxEntry {
  readonly event: FundbotEvent;
  readonly attempts: number;
  /** Epoch ms before which no retry is made (backoff after a failed delivery). */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
}

/**
 * Everything durable about one project: the seen-state of every feed and the outbox.
 * In memory it is one value; in the store it is split into a small head and chunks
 * (project-state-layout.ts) and committed as a whole: chunks first, into slots the
 * stored head does not reference, then the head, so an event enters the outbox in
 * the same commit that marks its entry seen although keyv has no transactions.
 * Bounded: windows of recent entries, flags per reward; only the seen keys grow with
 * the list, and they are stored in chunks.
 */
export interface ProjectState {
  readonly version: 1;
  readonly lists: {
    readonly fundings?: ListState<Funding>;
    readonly wall?: ListState<WallPost>;
    readonly blogText?: ListState<BlogPost>;
    readonly blogStory?: ListState<BlogPost>;
  };
  /** Epoch ms of the latest successful read per feed. */
  readonly readAt: Readonly<Record<string, number>>;
  readonly project: { readonly snapshot: Project; readonly milestonesDone: readonly number[] } | null;
  readonly rewards: Readonly<Record<string, RewardFlags>> | null;
  readonly watchingAnnounced: boolean;
  readonly outbox: readonly OutboxEntry[];
  /** The stops of its feeds the channels were or will be told about (domain/feed-health.ts); absent: none. */
  readonly feedHealth?: FeedHealthState;
}

export function emptyProjectState(): ProjectState {
  return {
    version: 1,
    lists: {},
    readAt: {},
    project: null,
    rewards: null,
    watchingAnnounced: false,
    outbox: [],
  };
}

const eventTypes = [
  'supporter',
  'supporter-burst',
  'wall-post',
  'wall-post-burst',
  'blog-post',
  'milestone',
  'reward-sold-out',
  'reward-unlocked',
  'reward-restocked',
  'reward-low-stock',
  'project-status',
  'watching',
  'feed-health',
] as const satisfies readonly FundbotEventType[];

/**
 * Events are written by this engine only; the schema checks the envelope every
 * event shares and keeps the rest as written (a full union schema would repeat
 * events.ts field by field and drift from it).
 */
const storedEventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.enum(eventTypes),
  project: z.string(),
  occurredAt: z.number(),
  detectedAt: z.number(),
}) as unknown as z.ZodType<FundbotEvent>;

const outboxEntrySchema: z.ZodType<OutboxEntry> = z.object({
  event: storedEventSchema,
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.number(),
  lastError: z.string().nullable(),
});

const feedStopSchema = z.looseObject({
  subject: z.string().min(1),
  feed: z.string(),
  cause: z.enum(['key-rejected', 'key-wrong-project', 'scope-missing', 'unreachable']),
});

/** The feed-health rule's state as stored (written by this engine only: the envelope is checked). */
export const feedHealthStateSchema = z.record(
  z.string(),
  z.object({ stop: feedStopSchema, since: z.number(), announced: z.boolean() }),
) as unknown as z.ZodType<FeedHealthState>;

export const projectStateSchema: z.ZodType<ProjectState> = z.object({
  version: z.literal(1),
  lists: z.object({
    fundings: listStateSchema(fundingSchema).optional(),
    wall: listStateSchema(wallPostSchema).optional(),
    blogText: listStateSchema(blogPostSchema).optional(),
    blogStory: listStateSchema(blogPostSchema).optional(),
  }),
  readAt: z.record(z.string(), z.number()),
  project: z.object({ snapshot: projectSchema, milestonesDone: z.array(z.number()) }).nullable(),
  rewards: z.record(z.string(), rewardFlagsSchema).nullable(),
  watchingAnnounced: z.boolean(),
  outbox: z.array(outboxEntrySchema),
  feedHealth: feedHealthStateSchema.optional(),
}) as z.ZodType<ProjectState>;

/** Store keys, namespaced per project (the state's layout: project-state-layout.ts). */
export const stateKeys = {
  /** Everything the engine stores of one project starts with this (its state, history and status). */
  prefix: (linkCaption: string) => `engine/${linkCaption}/`,
  /** The state as one value, as stored before the state was split: read once, to migrate. */
  state: (linkCaption: string) => `engine/${linkCaption}/state`,
  /** The small value every commit writes last: cursors, counters and where the chunks are. */
  head: (linkCaption: string) => `engine/${linkCaption}/head`,
  /** One chunk of a collection, in one of its two slots (`entries/fundings/3a`). */
  chunk: (linkCaption: string, collection: string, ref: { id: number; slot: 'a' | 'b' }) =>
    `engine/${linkCaption}/${collection}/${ref.id}${ref.slot}`,
  /** The project's status as every replica shows it (status-board.ts). */
  status: (linkCaption: string) => `engine/${linkCaption}/status`,
  /** The funding history as one value, as stored before it was chunked: read once, to migrate. */
  history: (linkCaption: string) => `engine/${linkCaption}/history`,
  /** Where the history's chunks are (collection `history`). */
  historyIndex: (linkCaption: string) => `engine/${linkCaption}/history-index`,
};

import type { BlogPost, Funding, Incentive, IncentiveDetail, Project, WallPost } from '../api/index.js';
import type { EngineNote } from './engine-notes.js';

/**
 * What the command core needs from the engine. The engine implements it from
 * its cache; a method costs an API request only when the cached value is older
 * than `maxAgeMs`. When a refresh fails and an older value exists, that value is
 * returned with `staleBecause` set, so a command can answer with it, labelled
 * with its age, instead of staying silent. With no value at all it throws the
 * API's typed error.
 */
export interface ProjectReadModel {
  /** The projects this deployment watches, for autocomplete and defaults. */
  watchedProjects(): readonly WatchedProject[];
  project(linkCaption: string, maxAgeMs: number): Promise<Cached<Project>>;
  rewards(linkCaption: string, maxAgeMs: number): Promise<Cached<readonly Incentive[]>>;
  reward(linkCaption: string, rewardId: number, maxAgeMs: number): Promise<Cached<IncentiveDetail>>;
  /** Newest first, from the engine's feed state (no request). */
  recentSupporters(linkCaption: string, limit: number): Promise<Cached<readonly Funding[]>>;
  /** Newest first, both blog types, as the API returned them (teasers for locked posts). */
  recentBlogPosts(linkCaption: string, limit: number): Promise<Cached<readonly BlogPost[]>>;
  /** Newest first, from the engine's feed state (no request). */
  recentWallPosts(linkCaption: string, limit: number): Promise<Cached<readonly WallPost[]>>;
  /** Funding snapshots since `sinceMs`, oldest first. */
  history(linkCaption: string, sinceMs: number): Promise<readonly HistoryPoint[]>;
  status(linkCaption: string): Promise<EngineStatus>;
  /**
   * Resolves once the project's supporters list has a stored baseline, so every supporter who funds from
   * then on is announced (what /subscribe confirms): at once when it has one; on the replica that polls the
   * project by reading it now (1-2 requests from the command reserve); on any other by waiting up to
   * `waitMs` for the stored state. False when none could be had (the key is refused, the feed is off).
   */
  baseline(linkCaption: string, waitMs: number): Promise<boolean>;
}

export interface WatchedProject {
  readonly linkCaption: string;
  readonly title: string;
}

export interface Cached<T> {
  readonly value: T;
  /** Epoch ms of the API response this value came from. */
  readonly fetchedAt: number;
  /** Set when the latest refresh failed: why, as a note (each channel reads it in its language). */
  readonly staleBecause?: EngineNote;
}

export interface HistoryPoint {
  readonly at: number;
  readonly funding: number;
  readonly supporters: number;
  /** quantity_sold per reward id. */
  readonly rewardsSold: Readonly<Record<string, number>>;
}

export interface FeedStatus {
  readonly feed: 'project' | 'incentives' | 'fundings' | 'wall' | 'blog';
  readonly lastSuccessAt: number | null;
  readonly intervalMs: number;
  /** Turned off because the key lacks the scope (a `scope-missing` note). */
  readonly disabledReason?: EngineNote;
}

export interface EngineStatus {
  readonly feeds: readonly FeedStatus[];
  readonly budget: {
    readonly dayLimit: number | null;
    readonly dayRemaining: number | null;
    readonly dayResetAt: number | null;
    readonly minuteRemaining: number | null;
  };
  /** The engine's recent notes, as codes with parameters (translated at the edge). */
  readonly recentErrors: readonly { readonly at: number; readonly note: EngineNote }[];
  /**
   * Set while the engine has paused the project's polling because the API rejected its
   * key (why, as a note, and since when); null while it polls.
   */
  readonly paused: { readonly reason: EngineNote; readonly since: number } | null;
  /**
   * While polls succeed, the poll times are refreshed at least this often (the fleet's shared status is
   * written on change, and this often besides): a `lastSuccessAt` younger than this means "polled within
   * it", not "exactly then". Absent: the times are exact.
   */
  readonly reportedEveryMs?: number;
  /**
   * The project's title and funding as the polling replica last read them (what the overview shows, the same
   * on every replica); absent before the project was read.
   */
  readonly project?: {
    readonly title: string;
    readonly current: number;
    readonly goal: number;
    readonly currency: string;
    /** Epoch ms of the read. */
    readonly readAt: number;
  };
}

import type { NoticeKind } from './notice-kinds.js';

/**
 * The one table of a project's feeds: which API scope each needs, which notices
 * it feeds, how often the engine wants to poll it and how much of the budget it
 * deserves. The engine's planner, the key check at start-up, `/status` and the
 * "notices are off" messages all read it, so they cannot drift apart.
 */
export const feedNames = ['fundings', 'project', 'wall', 'blog', 'incentives'] as const;
export type FeedName = (typeof feedNames)[number];

export interface FeedSpec {
  readonly feed: FeedName;
  /** The API scope a Project API key needs for this feed. */
  readonly scope: string;
  /** The notice kinds this feed produces (a channel subscribes to these). */
  readonly notices: readonly NoticeKind[];
  /** Wanted interval (ms) when the budget allows it. */
  readonly defaultIntervalMs: number;
  /** Share of the budget relative to the other feeds. */
  readonly weight: number;
  /** English operator wording of what stops without the scope (logs and warnings; channels use i18n). */
  readonly offConsequence: string;
}

export const feedTable: Readonly<Record<FeedName, FeedSpec>> = {
  fundings: {
    feed: 'fundings',
    scope: 'fundings:read',
    notices: ['supporters'],
    defaultIntervalMs: 20_000,
    weight: 8,
    offConsequence: 'supporter notices are off',
  },
  project: {
    feed: 'project',
    scope: 'project:read',
    notices: ['milestones'],
    defaultIntervalMs: 90_000,
    weight: 2,
    offConsequence: 'funding figures, milestone and status notices are off',
  },
  wall: {
    feed: 'wall',
    scope: 'wall:read',
    notices: ['wall'],
    defaultIntervalMs: 60_000,
    weight: 2,
    offConsequence: 'wall notices are off',
  },
  blog: {
    feed: 'blog',
    scope: 'blog:read',
    notices: ['blog'],
    defaultIntervalMs: 5 * 60_000,
    weight: 1,
    offConsequence: 'blog notices are off',
  },
  incentives: {
    feed: 'incentives',
    scope: 'incentives:read',
    notices: ['rewards'],
    defaultIntervalMs: 5 * 60_000,
    weight: 1,
    offConsequence: 'reward notices (sold out, unlocked, back in stock, low stock) are off',
  },
};

/** The feed a scope belongs to, for an `insufficient_scope` answer. */
export function feedOfScope(scope: string): FeedName | undefined {
  return feedNames.find((feed) => feedTable[feed].scope === scope);
}

import type { BlogPost, Funding, Incentive, Project, WallPost } from '../../api/index.js';
import { publicTeaser } from '../../api/index.js';
import type { FundbotEvent } from '../../domain/events.js';
import type { MilestoneCrossing } from '../../domain/milestones.js';
import { htmlToPlainText, shorten, singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { FreshEntry } from '../lists/list-reader.js';
import { type RewardTransition, remainingOf } from './reward-diff.js';

/** The id of a single supporter's notice: also what a drop of that support corrects. */
export const supporterEventId = (project: string, entryKey: string) => `${project}:supporter:${entryKey}`;
/** The id of a single wall post's notice. */
export const wallPostEventId = (project: string, postId: number) => `${project}:wall-post:${postId}`;
/** The id of a blog post's notice. */
export const blogPostEventId = (project: string, postId: number) => `${project}:blog-post:${postId}`;

interface Context {
  readonly project: string;
  readonly detectedAt: number;
  readonly currency: string;
}

/**
 * Names and titles in events are single-line and bounded, messages plain text and
 * bounded, by the one table (domain/text-limits.ts) the core renders them with.
 *
 * Supporter notices: one per supporter, or ONE coalesced notice when more than
 * `burstThreshold` arrive in one poll (a restart's catch-up, a launch rush).
 * `fundingTotal` and `supporterCount` are only known for the newest supporter
 * (the project read right after the list, in the same cycle), so they are null
 * on the others: a notice never states a figure that was not read.
 */
export function supporterEvents(
  ctx: Context,
  fresh: readonly FreshEntry<Funding>[],
  burstThreshold: number,
  projectAfterNewest: { readonly funding: number; readonly supporters: number } | null,
): FundbotEvent[] {
  const fundingAfterNewest = projectAfterNewest?.funding ?? null;
  const supportersAfterNewest = projectAfterNewest?.supporters ?? null;
  const newest = fresh.at(-1);
  const oldest = fresh[0];
  if (newest === undefined || oldest === undefined) return [];
  if (fresh.length > burstThreshold) {
    return [
      {
        type: 'supporter-burst',
        id: `${ctx.project}:supporter-burst:${oldest.key}..${newest.key}:${fresh.length}`,
        project: ctx.project,
        occurredAt: newest.item.support_timestamp * 1000,
        detectedAt: ctx.detectedAt,
        count: fresh.length,
        // Every name, newest first: delivery names each supporter (the rest in the notice's thread).
        displayNames: [...fresh].reverse().map((f) => singleLine(f.item.user.display_name, limits.name)),
        supporterCount: supportersAfterNewest,
        fundingTotal: fundingAfterNewest,
        currency: ctx.currency,
        entryKeys: fresh.map((f) => f.key),
      },
    ];
  }
  return fresh.map((f) => ({
    type: 'supporter',
    id: supporterEventId(ctx.project, f.key),
    project: ctx.project,
    occurredAt: f.item.support_timestamp * 1000,
    detectedAt: ctx.detectedAt,
    displayName: singleLine(f.item.user.display_name, limits.name),
    supporterCount: f === newest ? supportersAfterNewest : null,
    fundingTotal: f === newest ? fundingAfterNewest : null,
    currency: ctx.currency,
    entryKey: f.key,
  }));
}

/** Wall notices (plain-text message), coalesced above `burstThreshold` like supporters. */
export function wallEvents(
  ctx: Omit<Context, 'currency'>,
  fresh: readonly FreshEntry<WallPost>[],
  burstThreshold: number,
): FundbotEvent[] {
  const newest = fresh.at(-1);
  const oldest = fresh[0];
  if (newest === undefined || oldest === undefined) return [];
  if (fresh.length > burstThreshold) {
    return [
      {
        type: 'wall-post-burst',
        id: `${ctx.project}:wall-post-burst:${oldest.key}..${newest.key}:${fresh.length}`,
        project: ctx.project,
        occurredAt: newest.item.created_timestamp * 1000,
        detectedAt: ctx.detectedAt,
        count: fresh.length,
        // Every author once: the notice names a few and counts the rest ("and 7 more").
        authors: [
          ...new Set([...fresh].reverse().map((f) => singleLine(f.item.user.display_name, limits.name))),
        ],
        postIds: fresh.map((f) => f.item.id),
      },
    ];
  }
  return fresh.map((f) => ({
    type: 'wall-post',
    id: wallPostEventId(ctx.project, f.item.id),
    project: ctx.project,
    occurredAt: f.item.created_timestamp * 1000,
    detectedAt: ctx.detectedAt,
    postId: f.item.id,
    author: singleLine(f.item.user.display_name, limits.name),
    message: shorten(htmlToPlainText(f.item.message), limits.wallMessage),
  }));
}

/**
 * Blog notices. A supporter-only or locked post gets only its public teaser
 * (`description`), never its text, whatever the API returned.
 */
export function blogEvent(
  ctx: Omit<Context, 'currency'>,
  post: BlogPost,
  projectUrl: string | null,
): FundbotEvent {
  const teaser = htmlToPlainText(publicTeaser(post));
  const base = projectUrl?.replace(/\/+$/, '') ?? '';
  return {
    type: 'blog-post',
    id: blogPostEventId(ctx.project, post.id),
    project: ctx.project,
    occurredAt: post.release_timestamp * 1000,
    detectedAt: ctx.detectedAt,
    postId: post.id,
    title: singleLine(post.title, limits.title),
    blogType: post.type === 'story' ? 'story' : 'text',
    link: base ? `${base}/blog/${post.id}` : '',
    supporterOnly: post.is_supporter_only,
    teaser: shorten(teaser, limits.teaser),
  };
}

export function milestoneEvents(
  ctx: Context,
  project: Project,
  crossings: readonly MilestoneCrossing[],
): FundbotEvent[] {
  return crossings.map((c) => ({
    type: 'milestone',
    id: `${ctx.project}:milestone:${c.percent}`,
    project: ctx.project,
    occurredAt: ctx.detectedAt,
    detectedAt: ctx.detectedAt,
    percent: c.percent,
    goalReached: c.goalReached,
    funding: project.current_funding,
    goal: project.funding_threshold,
    currency: project.currency,
  }));
}

/** Status notices: `project.status` changes, and `payoff` when process_status turns to it. */
export function statusEvents(
  ctx: Omit<Context, 'currency'>,
  before: Project,
  after: Project,
): FundbotEvent[] {
  const events: FundbotEvent[] = [];
  if (after.status !== before.status) {
    events.push({
      type: 'project-status',
      id: `${ctx.project}:project-status:${after.status}`,
      project: ctx.project,
      occurredAt: ctx.detectedAt,
      detectedAt: ctx.detectedAt,
      from: before.status,
      to: after.status,
    });
  }
  if (after.process_status === 'payoff' && before.process_status !== 'payoff') {
    events.push({
      type: 'project-status',
      id: `${ctx.project}:project-status:payoff`,
      project: ctx.project,
      occurredAt: ctx.detectedAt,
      detectedAt: ctx.detectedAt,
      from: before.process_status ?? before.status,
      to: 'payoff',
    });
  }
  return events;
}

export function rewardEvents(ctx: Context, transitions: readonly RewardTransition[]): FundbotEvent[] {
  return transitions.map((t): FundbotEvent => {
    const shared = {
      project: ctx.project,
      occurredAt: ctx.detectedAt,
      detectedAt: ctx.detectedAt,
      rewardId: t.reward.id,
      title: singleLine(t.reward.title, limits.title),
      price: t.reward.price,
      currency: ctx.currency,
    };
    const reward = `${ctx.project}:reward-${t.kind}:${t.reward.id}`;
    switch (t.kind) {
      case 'sold-out':
        return { ...shared, type: 'reward-sold-out', id: `${reward}:${t.count}` };
      case 'unlocked':
        return { ...shared, type: 'reward-unlocked', id: reward };
      case 'restocked':
        // The end of the n-th sell-out: a second restock after a second sell-out is a new notice.
        return {
          ...shared,
          type: 'reward-restocked',
          id: `${reward}:${t.count}`,
          remaining: remainingOf(t.reward),
        };
    }
    return {
      ...shared,
      type: 'reward-low-stock',
      id: `${reward}:${t.count}`,
      remainingBefore: t.remainingBefore,
      remaining: t.remaining,
    };
  });
}

/** Rewards sold per id, for history points. */
export function rewardsSold(rewards: readonly Incentive[]): Record<string, number> {
  return Object.fromEntries(rewards.map((r) => [String(r.id), r.quantity_sold]));
}

import { type BlogPost, type Funding, fundingKey, type WallPost } from '../../api/index.js';
import type { FundbotEvent } from '../../domain/events.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { ListItemCodec } from '../lists/list-order.js';
import type { ListReadResult } from '../lists/list-reader.js';
import type { ListState } from '../lists/list-state.js';
import { blogPostEventId, supporterEventId, wallPostEventId } from './feed-events.js';

/**
 * The entries that dropped out of a list in this read: known before, newer than
 * the new window's floor (so not merely trimmed away), and absent now. Only when
 * the reader counted drops and no flood re-baselined the window (then keys are
 * not to be trusted). Costs nothing: both windows are already in memory.
 */
export function droppedEntries<T>(
  before: ListState<T> | undefined,
  result: ListReadResult<T>,
  codec: ListItemCodec<T>,
): T[] {
  if (!before || result.dropped === 0 || result.flood || result.kind === 'baseline') return [];
  const now = new Set(result.state.entries.map((e) => codec.key(e)));
  return before.entries.filter((e) => codec.ts(e) >= result.state.floorTs && !now.has(codec.key(e)));
}

interface Context {
  readonly project: string;
  readonly detectedAt: number;
  /** After payout supports no longer change (the spec): nothing is taken back then. */
  readonly paidOut: boolean;
}

/** A support that left the public list before payout: its notice is corrected. */
export function supportDroppedEvents(
  ctx: Context,
  dropped: readonly Funding[],
  key: (f: Funding) => string,
): FundbotEvent[] {
  if (ctx.paidOut) return [];
  return dropped.map((f) => ({
    type: 'support-dropped',
    id: `${ctx.project}:support-dropped:${key(f)}`,
    project: ctx.project,
    occurredAt: ctx.detectedAt,
    detectedAt: ctx.detectedAt,
    originalEventId: supporterEventId(ctx.project, key(f)),
    entryKey: key(f),
    displayName: singleLine(f.user.display_name, limits.name),
  }));
}

/**
 * Supports found dropped below the window (list-late-search.ts): only their (second, user id)
 * pair is kept there, so the event carries no name; the correction shows the localized
 * placeholder in its struck title.
 */
export function supportDroppedBelowEvents(
  ctx: Context,
  pairs: readonly { readonly ts: number; readonly id: number }[],
): FundbotEvent[] {
  return supportDroppedEvents(
    ctx,
    pairs.map((pair) => ({ support_timestamp: pair.ts, user: { id: pair.id, display_name: '' } }) as Funding),
    fundingKey,
  );
}

/** Deleted wall posts: their notices are corrected (the author's display name only). */
export function wallDeletedEvents(ctx: Context, dropped: readonly WallPost[]): FundbotEvent[] {
  if (ctx.paidOut) return [];
  return dropped.map((w) => ({
    type: 'post-deleted',
    feed: 'wall',
    id: `${ctx.project}:wall-post-deleted:${w.id}`,
    project: ctx.project,
    occurredAt: ctx.detectedAt,
    detectedAt: ctx.detectedAt,
    originalEventId: wallPostEventId(ctx.project, w.id),
    postId: w.id,
    label: singleLine(w.user.display_name, limits.name),
  }));
}

/** Deleted blog posts: their notices are corrected (the title only). */
export function blogDeletedEvents(ctx: Context, dropped: readonly BlogPost[]): FundbotEvent[] {
  if (ctx.paidOut) return [];
  return dropped.map((b) => ({
    type: 'post-deleted',
    feed: 'blog',
    id: `${ctx.project}:blog-post-deleted:${b.id}`,
    project: ctx.project,
    occurredAt: ctx.detectedAt,
    detectedAt: ctx.detectedAt,
    originalEventId: blogPostEventId(ctx.project, b.id),
    postId: b.id,
    label: singleLine(b.title, limits.title),
  }));
}

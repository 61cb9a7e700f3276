import {
  type FeedHealthObservation,
  type FeedStop,
  nextFeedHealthDue,
  stepFeedHealth,
} from '../../domain/feed-health.js';
import { feedNames } from '../../domain/feeds.js';
import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { commit } from '../state/project-state-store.js';

/**
 * Where the engine tells the feed-health rule (domain/feed-health.ts) what it sees: the key paused
 * (key-pause.ts), a feed switched off for a missing scope (scheduler.ts), every feed failing (the API out of
 * reach). Read from the runtime after each cycle, so every place that pauses, switches off or resumes is covered
 * without a hook of its own; a subject not polled since the start is neither stopped nor working (unknown).
 */
export function observeFeedHealth(rt: ProjectRuntime, now: number): FeedHealthObservation {
  const stopped: (FeedStop & { since?: number })[] = [];
  const working: string[] = [];
  const feeds = feedNames.map((feed) => ({ feed, f: rt.feeds.get(feed) }));
  const paused = rt.paused;
  if (paused !== null) {
    const connected = (paused.reason.params as { connected?: true }).connected;
    stopped.push({
      subject: 'key',
      feed: 'all',
      cause: paused.reason.code === 'key-wrong-project' ? 'key-wrong-project' : 'key-rejected',
      ...(connected ? { connected } : {}),
      since: paused.since,
    });
    // Paused, no feed is read: whether a scope is back or the API answers is unknown until the key works.
    return { stopped, working };
  }
  if (feeds.some(({ f }) => f?.lastSuccessAt != null)) working.push('key');
  for (const { feed, f } of feeds) {
    if (f === undefined) continue;
    const reason = f.disabledReason;
    if (reason?.code === 'scope-missing') {
      stopped.push({ subject: `scope:${feed}`, feed, cause: 'scope-missing', scope: reason.params.scope });
    } else if (f.lastSuccessAt !== null) {
      working.push(`scope:${feed}`);
    }
  }
  const on = feeds.filter(({ f }) => f !== undefined && f.disabledReason === undefined);
  if (on.some(({ f }) => f?.failures === 0 && f.lastSuccessAt !== null)) working.push('api');
  else if (on.length > 0 && on.every(({ f }) => (f?.failures ?? 0) > 0)) {
    // Since the last read that got through, this run's or (after a restart) the stored one.
    const reads = on.map(({ feed, f }) => f?.lastSuccessAt ?? rt.state?.readAt[feed] ?? 0);
    const last = Math.max(...reads);
    stopped.push({ subject: 'api', feed: 'all', cause: 'unreachable', since: last > 0 ? last : now });
  }
  return { stopped, working };
}

/**
 * One step of the rule after a cycle: its state is committed with the project's (in the cycle's one write) and
 * its notices enter the outbox in the same write, so a crash repeats them with the same ids (the ledger posts
 * each once) and a restart or a replica taking over continues the same stops.
 */
export async function trackFeedHealth(ctx: EngineContext, rt: ProjectRuntime): Promise<void> {
  const state = rt.state;
  if (state === null) return;
  const now = ctx.clock.now();
  const lc = rt.config.linkCaption;
  const before = state.feedHealth ?? {};
  const step = stepFeedHealth(lc, before, observeFeedHealth(rt, now), now, ctx.settings.feedHealthHoldMs);
  if (step.events.length === 0 && JSON.stringify(step.next) === JSON.stringify(before)) return;
  await commit(ctx, rt, { ...state, feedHealth: step.next }, step.events);
  for (const event of step.events) {
    ctx.logger.info(
      { project: lc, subject: event.stop.subject, cause: event.stop.cause, since: event.since },
      event.change === 'stopped'
        ? 'feed health: the stop is said in the subscribed channels'
        : 'feed health: the resume is said in the subscribed channels',
    );
  }
}

/** Epoch ms the project's next unsaid stop is due to be said: the scheduler wakes the project then. */
export function feedHealthDueAt(ctx: EngineContext, rt: ProjectRuntime): number {
  const health = rt.state?.feedHealth;
  return health === undefined
    ? Number.POSITIVE_INFINITY
    : nextFeedHealthDue(health, ctx.settings.feedHealthHoldMs);
}

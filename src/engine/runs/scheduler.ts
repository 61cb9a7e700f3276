import { ForbiddenError, RateLimitError } from '../../api/index.js';
import { note, noteForLog } from '../../domain/engine-notes.js';
import type { EventSink } from '../../domain/event-sink.js';
import { type FeedName, feedNames, feedTable } from '../../domain/feeds.js';
import { type BackoffPolicy, backoffMs } from '../../lib/backoff.js';
import type { PollOutcome } from '../context/engine-project.js';
import { noteError } from '../context/engine-project.js';
import { POLL_JITTER } from '../context/engine-settings.js';
import { pollers } from '../feeds/index.js';
import { feedHealthDueAt, trackFeedHealth } from '../health/feed-health-watch.js';
import { offerOutbox } from '../outbox/outbox.js';
import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { classifyFailure } from '../read-model/describe-failure.js';
import { DeferredError } from '../schedule/credential-gate.js';
import {
  isKeyRejection,
  neverGrantedRecheckBackoff,
  nextProbeAt,
  nextRecheckAt,
  pauseProject,
  recheckBackoff,
  recheckPace,
  resumeProject,
} from '../schedule/key-pause.js';
import { replan } from '../schedule/replan.js';
import { feedOf } from '../schedule/schedule-slice.js';
import { nextPollInWindow } from '../schedule/signal-interleave.js';
import { ensureLease } from '../state/project-lease.js';
import { currentState, inOneCommit } from '../state/project-state-store.js';

/** Past this many doublings a failing feed's retry stops growing (5 s × 2^10 ≈ 85 min). */
const MAX_POLL_BACKOFF_MS = 5_000 * 2 ** 10;

/** A failing feed retries after 5 s doubling, never later than its planned interval, spread ±25%. */
function pollBackoff(intervalMs: number): BackoffPolicy {
  return { baseMs: 5_000, maxMs: Math.min(intervalMs, MAX_POLL_BACKOFF_MS), jitter: 'spread' };
}

function outcomeOf(error: unknown): PollOutcome['result'] {
  if (error instanceof DeferredError) return 'skipped';
  if (error instanceof RateLimitError) return 'rate_limited';
  if (error instanceof ForbiddenError) return 'forbidden';
  return 'error';
}

/**
 * Polls one feed; on success re-plans and schedules the next poll (POLL_JITTER), on failure see
 * handlePollError. Returns whether the poll succeeded.
 */
export async function runFeed(ctx: EngineContext, rt: ProjectRuntime, feed: FeedName): Promise<boolean> {
  const { clock } = ctx;
  const f = feedOf(rt, feed);
  const now = clock.now();
  const report = (result: PollOutcome['result']) =>
    ctx.onPoll?.({ project: rt.config.linkCaption, feed, result, durationMs: clock.now() - now });
  try {
    await rt.mutex.run(() => pollers[feed](ctx, rt, feed));
    report('ok');
    if (rt.paused !== null) resumeProject(ctx, rt);
    if (f.disabledReason !== undefined) turnBackOn(ctx, rt, feed);
    ctx.counters.polls += 1;
    f.lastSuccessAt = clock.now();
    f.failures = 0;
    replan(ctx, rt);
    // Jittered so feeds and replicas do not fall into lockstep; fundings covered by the User key's
    // change signal are polled between its reads instead (signal-interleave.ts).
    f.dueAt =
      (feed === 'fundings' ? nextPollInWindow(f.signalWindow, clock.now()) : undefined) ??
      clock.now() + Math.round(f.intervalMs * (1 - POLL_JITTER + 2 * POLL_JITTER * ctx.random.next()));
    return true;
  } catch (error) {
    report(outcomeOf(error));
    handlePollError(ctx, rt, feed, error, now);
    return false;
  }
}

/**
 * Schedules the feed after a failed poll: a deferral waits for its time, a 429 for
 * the transport's Retry-After pause, a missing scope turns the feed off, anything
 * else retries with backoff.
 */
export function handlePollError(
  ctx: EngineContext,
  rt: ProjectRuntime,
  feed: FeedName,
  error: unknown,
  startedAt: number,
): void {
  const { clock, logger } = ctx;
  const f = feedOf(rt, feed);
  const lc = rt.config.linkCaption;
  if (error instanceof DeferredError) {
    f.dueAt = Math.max(error.until, clock.now() + 1);
    if (rt.paused !== null) rt.paused.retryAt = Math.max(rt.paused.retryAt, f.dueAt);
    return;
  }
  if (isKeyRejection(error)) {
    pauseProject(ctx, rt, { code: error.code, status: error.status });
    return;
  }
  // Any other answer to a probe means the key itself was accepted (a scope may still be missing).
  if (rt.paused !== null && error instanceof ForbiddenError && error.code === 'insufficient_scope') {
    resumeProject(ctx, rt);
  }
  // Anything else at a probe (a 5xx, a timeout) says nothing about the key: probe again later.
  if (rt.paused !== null) rt.paused.retryAt = nextProbeAt(ctx, rt.paused);
  if (error instanceof RateLimitError) {
    f.dueAt = Math.max(ctx.api.pausedUntil(rt.config.key), clock.now() + 1000);
    noteError(rt, clock.now(), note('rate-limited', { feed, until: f.dueAt }));
    logger.warn({ project: lc, feed, retryAfterMs: error.retryAfterMs }, 'rate limited: obeying Retry-After');
    return;
  }
  if (error instanceof ForbiddenError && error.code === 'insufficient_scope') {
    // Re-checked with one ordinary poll through the gate (inside the budget, never from the reserve), at the
    // pace of scopeRecheckPolicy; the feed comes back on its own when an admin adds the scope. Counted as a
    // one-off request, so the plan leaves room for the re-checks in the key's budget.
    f.scopeRechecks = (f.scopeRechecks ?? 0) + 1;
    f.dueAt = nextRecheckAt(ctx, f.scopeRechecks, scopeRecheckPolicy(rt, feed));
    f.oneOffs.record(clock.now(), 1);
    // Still off at a re-check: already logged and noted once.
    if (f.disabledReason !== undefined) return;
    const { scope, offConsequence } = feedTable[feed];
    f.disabledReason = note('scope-missing', { feed, scope });
    noteError(rt, clock.now(), f.disabledReason);
    const pace =
      scopeRecheckPolicy(rt, feed) === recheckBackoff
        ? recheckPace
        : `after a few seconds, then less often, at least every ${neverGrantedRecheckBackoff.maxMs / 60_000} minutes`;
    logger.warn(
      { project: lc, feed },
      `the key for ${lc} lacks ${scope}: ${offConsequence} (add the ${scope} scope to the key in project administration → API keys; fundbot re-checks ${pace})`,
    );
    replan(ctx, rt);
    return;
  }
  f.failures += 1;
  const backoff = backoffMs(pollBackoff(f.intervalMs), f.failures, () => ctx.random.next());
  // A switched-off feed's re-check that failed otherwise waits for the next re-check, not for a backoff.
  f.dueAt =
    f.disabledReason !== undefined
      ? nextRecheckAt(ctx, f.scopeRechecks ?? 1, scopeRecheckPolicy(rt, feed))
      : Math.max(startedAt, clock.now()) + backoff;
  const message = error instanceof Error ? error.message : String(error);
  // /status shows these notes in channels: the category only; the log line below has the details.
  noteError(rt, clock.now(), note('poll-failed', { feed, ...classifyFailure(error) }));
  logger.warn(
    { project: lc, feed, failures: f.failures, err: message },
    'poll failed: retrying with backoff',
  );
}

/** A re-check of a switched-off feed succeeded: the scope was added. One log line, and `/status` shows it on. */
function turnBackOn(ctx: EngineContext, rt: ProjectRuntime, feed: FeedName): void {
  const f = feedOf(rt, feed);
  delete f.disabledReason;
  delete f.scopeRechecks;
  const restored = note('scope-restored', { feed, scope: feedTable[feed].scope });
  noteError(rt, ctx.clock.now(), restored);
  ctx.logger.info({ project: rt.config.linkCaption, feed }, noteForLog(restored, rt.config.linkCaption));
}

/**
 * How a switched-off feed is re-checked: a scope the project's feed was read with before (an outage: a key
 * edited, a scope removed by mistake) at the recovery pace, seen within 50 s of its return; one it never had at
 * the slow pace of {@link neverGrantedRecheckBackoff} (key-pause.ts states both costs).
 */
function scopeRecheckPolicy(rt: ProjectRuntime, feed: FeedName) {
  const readBefore = rt.state?.readAt[feed] !== undefined || feedOf(rt, feed).lastSuccessAt !== null;
  return readBefore ? recheckBackoff : neverGrantedRecheckBackoff;
}

/** The lists a probe may read, cheapest first (the blog is two requests). */
const probeLists: readonly FeedName[] = ['fundings', 'wall', 'incentives', 'blog'];

/**
 * The feed whose poll is a paused project's probe: a list, never the project read. The project read answers
 * any key not entitled to more (another project's key too) with the public view, 200 (api-spec.md, project
 * endpoints rule 1): it cannot tell that the key works, and resuming on it looped pause → resume every 5 s
 * (issue 29). A list needs this project's key; a switched-off one still tells (`insufficient_scope` = the key
 * is accepted). One request for an idle list.
 */
function probeFeed(rt: ProjectRuntime): FeedName {
  return probeLists.find((feed) => feedOf(rt, feed).disabledReason === undefined) ?? 'fundings';
}

/**
 * Runs the project's due feeds (if this replica holds its lease) as one cycle whose state is written
 * once (inOneCommit), then offers its outbox to the sink. When that write fails, each feed polled in the
 * cycle is retried as after a failed poll, and nothing is offered: the state is back to before the cycle.
 */
export async function runProject(ctx: EngineContext, rt: ProjectRuntime, sink: EventSink): Promise<void> {
  if (!(await ensureLease(ctx, rt))) return;
  if (rt.state === null) await rt.mutex.run(() => currentState(ctx, rt));
  const now = ctx.clock.now();
  const polled: FeedName[] = [];
  const poll = async (feed: FeedName) => {
    if (await runFeed(ctx, rt, feed)) polled.push(feed);
  };
  // The start-up key check already had the key refused: paused at once, said once, nothing sent again.
  const refusedAtCheck = rt.paused === null ? rt.config.rejectedAtCheck?.() : undefined;
  if (refusedAtCheck !== undefined) pauseProject(ctx, rt, { code: refusedAtCheck });
  try {
    await inOneCommit(ctx, rt, async () => {
      await pollDue(rt, now, poll);
      // What stopped or resumed in this cycle, for the subscribed channels (feed-health-watch.ts).
      await trackFeedHealth(ctx, rt);
    });
  } catch (error) {
    for (const feed of polled) handlePollError(ctx, rt, feed, error, now);
    return;
  }
  await offerOutbox(ctx, rt, sink);
}

/** A paused project's probe when due, else every due feed (a switched-off one's re-check too). */
async function pollDue(
  rt: ProjectRuntime,
  now: number,
  poll: (feed: FeedName) => Promise<void>,
): Promise<void> {
  if (rt.paused !== null && now >= rt.paused.retryAt) await poll(probeFeed(rt));
  if (rt.paused !== null) return;
  const due = feedNames.filter((feed) => feedOf(rt, feed).dueAt <= now);
  for (const feed of due) {
    if (rt.paused !== null) break; // the key was just rejected: the other feeds would be too
    await poll(feed);
  }
}

/** Epoch ms of `rt`'s earliest due poll or lease renewal (delivery runs in the sink, on its own time). */
export function projectDueAt(ctx: EngineContext, rt: ProjectRuntime): number {
  if (ctx.clock.now() >= rt.leaseUntil) return rt.leaseRetryAt;
  let next = rt.leaseUntil - ctx.settings.leaseTtlMs / 3;
  const pausedUntil = ctx.api.pausedUntil(rt.config.key);
  if (rt.paused !== null) next = Math.min(next, Math.max(rt.paused.retryAt, pausedUntil));
  else for (const f of rt.feeds.values()) next = Math.min(next, Math.max(f.dueAt, pausedUntil));
  // A stop due to be said wakes the project; one already past due (a cycle whose write failed) waits for the
  // next poll or probe instead of spinning.
  const healthDue = feedHealthDueAt(ctx, rt);
  return healthDue > ctx.clock.now() ? Math.min(next, healthDue) : next;
}

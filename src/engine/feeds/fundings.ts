import type { Funding } from '../../api/index.js';
import { fundingKey } from '../../api/index.js';
import type { FundbotEvent } from '../../domain/events.js';
import { POLL_JITTER } from '../context/engine-settings.js';
import { droppedEntries, supportDroppedBelowEvents, supportDroppedEvents } from '../events/drop-events.js';
import { supporterEvents } from '../events/feed-events.js';
import type { ListItemCodec } from '../lists/list-order.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { DeferredError } from '../schedule/credential-gate.js';
import { feedOf } from '../schedule/schedule-slice.js';
import type { ProjectState } from '../state/project-state.js';
import { commit, currentState, recordHistory } from '../state/project-state-store.js';
import { fetchProjectPart } from './project.js';
import { readFeedList } from './read-feed-list.js';

const fundingCodec: ListItemCodec<Funding> = {
  key: fundingKey,
  ts: (f) => f.support_timestamp,
  tieId: () => undefined,
  packId: (f) => f.user.id,
};

/**
 * Whether the project may be re-read in this fundings poll, so the newest supporter's
 * notice carries the supporter count and total read after it (a snapshot read before
 * the list does not count the new supporters, so it is never used for them). Not while
 * the project feed is off.
 *
 * A poll's re-read takes the project feed's next scheduled poll early (and pushes that
 * one interval on), so it is allowed whenever that next poll lies within one interval:
 * however busy the fundings are, project reads stay at the planned rate (one early read
 * per interval at most), and between two supporter cycles of one interval the second
 * goes without figures. The snapshot's age plays no part here: the planner keeps it
 * younger than a minute on a normal budget, and a rule "not when younger than 45 s" let
 * almost no notice carry figures (0 of 61 in the journeys of issue 23). A command's
 * re-read is paid from the command reserve instead, so it is held to
 * `projectRefreshOnChangeMs` since the last read.
 */
function mayReadProjectNow(
  ctx: EngineContext,
  rt: ProjectRuntime,
  state: ProjectState,
  tag: RequestTag,
): boolean {
  const now = ctx.clock.now();
  const projectFeed = feedOf(rt, 'project');
  if (projectFeed.disabledReason !== undefined) return false;
  if (tag === 'command') return now - (state.readAt['project'] ?? 0) >= ctx.settings.projectRefreshOnChangeMs;
  // Within one interval as planned, before its jitter: a supporter found just after a project poll that
  // drew a long jitter went without figures (about one notice in 24 at the demo's pace).
  return projectFeed.dueAt - now < projectFeed.intervalMs * (1 + POLL_JITTER);
}

/**
 * The fundings feed's poll. New supporters move the total: when the project
 * snapshot is older than `projectRefreshOnChangeMs`, the project is re-read in
 * the same cycle, for the "funding total after" and prompt milestones.
 */
export async function pollFundings(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  let state = await currentState(ctx, rt);
  // After a restart, or when this replica gains the project: the rhythm the state kept, if newer.
  rt.arrivals.adopt(state.lists.fundings?.rhythm);
  const result = await readFeedList(
    ctx,
    rt,
    'fundings',
    tag,
    'fundings',
    state.lists.fundings,
    fundingCodec,
    (offset, limit) => rt.api.fundingsPage({ limit, offset }),
  );
  const now = ctx.clock.now();
  if (result.kind === 'baseline') {
    // The first read shows the newest supporters and when they came: the rates of the time before watching.
    rt.arrivals.recordBefore(
      now,
      result.state.entries.map((f) => f.support_timestamp * 1000),
    );
  }
  // Where the supporters are: the planner paces this feed by when they arrived (fundings-pace.ts).
  rt.arrivals.record(
    now,
    result.fresh.map((f) => f.item.support_timestamp * 1000),
  );
  const events: FundbotEvent[] = [];
  const projectFeed = feedOf(rt, 'project');
  let projectAfter: { funding: number; supporters: number } | null = null;
  if (result.fresh.length > 0 && mayReadProjectNow(ctx, rt, state, tag)) {
    try {
      const part = await fetchProjectPart(ctx, rt, state, tag === 'command' ? 'command' : 'project');
      state = part.state;
      const project = rt.projectCache?.value;
      if (project !== undefined) {
        projectAfter = { funding: project.current_funding, supporters: project.supporter_count };
      }
      events.push(...part.events);
      projectFeed.lastSuccessAt = now;
      // The read is the project feed's next poll, taken early: its schedule moves one interval on.
      if (tag !== 'command') projectFeed.dueAt += projectFeed.intervalMs;
    } catch (error) {
      if (error instanceof DeferredError) throw error;
      ctx.logger.warn(
        { project: rt.config.linkCaption, err: String(error) },
        'project refresh after new supporters failed',
      );
    }
  }
  const currency = rt.projectCache?.value.currency ?? state.project?.snapshot.currency ?? '';
  events.unshift(
    ...supporterEvents(
      { project: rt.config.linkCaption, detectedAt: now, currency },
      result.fresh,
      ctx.settings.burstThreshold,
      projectAfter,
    ),
  );
  const paidOut = (rt.projectCache?.value ?? state.project?.snapshot)?.process_status === 'payoff';
  const dropped = droppedEntries(state.lists.fundings, result, fundingCodec);
  // The rhythm counts the supporters that stay: a support that failed is taken back out of it (arrival-rhythm.ts).
  const droppedAt = dropped.map((f) => f.support_timestamp * 1000);
  if (!paidOut) rt.arrivals.forget(now, droppedAt);
  events.push(
    ...supportDroppedEvents(
      { project: rt.config.linkCaption, detectedAt: now, paidOut },
      dropped,
      fundingKey,
    ),
    ...supportDroppedBelowEvents(
      { project: rt.config.linkCaption, detectedAt: now, paidOut },
      result.droppedBelow ?? [],
    ),
  );
  await commit(
    ctx,
    rt,
    {
      ...state,
      lists: { ...state.lists, fundings: { ...result.state, rhythm: rt.arrivals.toText() } },
      readAt: { ...state.readAt, fundings: now },
    },
    events,
  );
  if (projectAfter !== null) await recordHistory(ctx, rt, now);
}

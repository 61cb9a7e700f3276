import type { Funding } from '../../api/index.js';
import { fundingKey } from '../../api/index.js';
import type { FundbotEvent } from '../../domain/events.js';
import { DeferredError } from '../credential-gate.js';
import { droppedEntries, supportDroppedBelowEvents, supportDroppedEvents } from '../drop-events.js';
import type { EngineContext, RequestTag } from '../engine-context.js';
import { supporterEvents } from '../feed-events.js';
import type { ListItemCodec } from '../list-order.js';
import { feedOf, type ProjectRuntime } from '../project-runtime.js';
import type { ProjectState } from '../project-state.js';
import { commit, currentState, recordHistory } from '../project-state-store.js';
import { fetchProjectPart } from './project.js';
import { readFeedList } from './read-feed-list.js';

const fundingCodec: ListItemCodec<Funding> = {
  key: fundingKey,
  ts: (f) => f.support_timestamp,
  tieId: () => undefined,
  packId: (f) => f.user.id,
};

/**
 * Whether the project may be re-read in this fundings poll. Not when its snapshot is
 * younger than `projectRefreshOnChangeMs` or the project feed is off. A poll's re-read
 * takes the project feed's next scheduled poll early (and pushes that one interval on),
 * so it is allowed only while that next poll lies within one interval: however busy the
 * fundings are, project reads stay at the planned rate (one early read at most). A
 * command's re-read is paid from the command reserve instead.
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
  if (now - (state.readAt['project'] ?? 0) < ctx.settings.projectRefreshOnChangeMs) return false;
  return tag === 'command' || projectFeed.dueAt - now < projectFeed.intervalMs;
}

/**
 * The fundings feed's poll. New supporters move the total: when the project
 * snapshot is older than `projectRefreshOnChangeMs`, the project is re-read in
 * the same cycle, for the "funding total after" and prompt milestones.
 */
export async function pollFundings(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  let state = await currentState(ctx, rt);
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
  events.push(
    ...supportDroppedEvents(
      { project: rt.config.linkCaption, detectedAt: now, paidOut },
      droppedEntries(state.lists.fundings, result, fundingCodec),
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
      lists: { ...state.lists, fundings: result.state },
      readAt: { ...state.readAt, fundings: now },
    },
    events,
  );
  if (projectAfter !== null) await recordHistory(ctx, rt, now);
}

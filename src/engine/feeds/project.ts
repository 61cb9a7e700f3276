import type { FundbotEvent } from '../../domain/events.js';
import { crossedMilestones, defaultMilestones } from '../../domain/milestones.js';
import { milestoneEvents, statusEvents } from '../events/feed-events.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { readProject } from '../schedule/public-project-read.js';
import type { ProjectState } from '../state/project-state.js';
import { commit, currentState, recordHistory } from '../state/project-state-store.js';

/** Reads the project (one request); returns the new state part and its events (not yet committed). */
export async function fetchProjectPart(
  ctx: EngineContext,
  rt: ProjectRuntime,
  state: ProjectState,
  tag: RequestTag,
): Promise<{ state: ProjectState; events: FundbotEvent[] }> {
  const project = await readProject(ctx, rt, tag, state.project?.snapshot);
  const now = ctx.clock.now();
  rt.projectCache = { value: project, fetchedAt: now };
  const context = { project: rt.config.linkCaption, detectedAt: now, currency: project.currency };
  const milestones = crossedMilestones({
    funding: project.current_funding,
    goal: project.funding_threshold,
    allOrNothing: project.project_type_all_or_nothing,
    milestones: rt.config.milestones ?? defaultMilestones,
    done: state.project?.milestonesDone ?? [],
  });
  const events: FundbotEvent[] = [];
  // A first read only stores the baseline: "now watching" is posted by the core when a channel subscribes.
  if (state.project !== null) {
    events.push(...statusEvents(context, state.project.snapshot, project));
    events.push(...milestoneEvents(context, project, milestones.announce));
  }
  return {
    state: {
      ...state,
      project: { snapshot: project, milestonesDone: milestones.done },
      readAt: { ...state.readAt, project: now },
    },
    events,
  };
}

/** The project feed's poll: milestones, status changes and a history point. */
export async function pollProject(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  const state = await currentState(ctx, rt);
  const part = await fetchProjectPart(ctx, rt, state, tag);
  await commit(ctx, rt, part.state, part.events);
  await recordHistory(ctx, rt, ctx.clock.now());
}

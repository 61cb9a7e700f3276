import type { WallPost } from '../../api/index.js';
import { wallPostKey } from '../../api/index.js';
import { droppedEntries, wallDeletedEvents } from '../drop-events.js';
import type { EngineContext, RequestTag } from '../engine-context.js';
import { wallEvents } from '../feed-events.js';
import type { ListItemCodec } from '../list-order.js';
import type { ProjectRuntime } from '../project-runtime.js';
import { commit, currentState } from '../project-state-store.js';
import { trimList } from '../stored-post-privacy.js';
import { readFeedList } from './read-feed-list.js';

const wallCodec: ListItemCodec<WallPost> = {
  key: wallPostKey,
  ts: (w) => w.created_timestamp,
  tieId: (w) => w.id,
};

/** The wall feed's poll: new posts become notices; the stored window keeps no real names. */
export async function pollWall(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  const state = await currentState(ctx, rt);
  const result = await readFeedList(
    ctx,
    rt,
    'wall',
    tag,
    'wall',
    state.lists.wall,
    wallCodec,
    (offset, limit) => rt.api.wallPage({ limit, offset }),
  );
  const now = ctx.clock.now();
  const paidOut = (rt.projectCache?.value ?? state.project?.snapshot)?.process_status === 'payoff';
  const events = [
    ...wallEvents(
      { project: rt.config.linkCaption, detectedAt: now },
      result.fresh,
      ctx.settings.burstThreshold,
    ),
    ...wallDeletedEvents(
      { project: rt.config.linkCaption, detectedAt: now, paidOut },
      droppedEntries(state.lists.wall, result, wallCodec),
    ),
  ];
  await commit(
    ctx,
    rt,
    {
      ...state,
      lists: { ...state.lists, wall: trimList(result.state) },
      readAt: { ...state.readAt, wall: now },
    },
    events,
  );
}

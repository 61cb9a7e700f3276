import type { WallPost } from '../../api/index.js';
import { wallPostKey } from '../../api/index.js';
import { droppedEntries, wallDeletedEvents } from '../events/drop-events.js';
import { wallEvents } from '../events/feed-events.js';
import { trimList } from '../events/stored-post-privacy.js';
import type { ListItemCodec } from '../lists/list-order.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { commit, currentState } from '../state/project-state-store.js';
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

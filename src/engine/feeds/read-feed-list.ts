import { note } from '../../domain/engine-notes.js';
import type { FeedName } from '../../domain/feeds.js';
import { noteError } from '../context/engine-project.js';
import type { ListItemCodec } from '../lists/list-order.js';
import { type ListReadResult, readList } from '../lists/list-reader.js';
import type { ListState } from '../lists/list-state.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { request } from '../schedule/feed-request.js';
import { feedOf } from '../schedule/schedule-slice.js';

/** One page of a list endpoint, as the project API returns it. */
export type ListEndpoint<T> = (
  offset: number,
  limit: number,
) => Promise<{ items: T[]; meta: { total: number } }>;

/**
 * Reads what is new in one list of `feed` (every page through the gate, counted
 * for `tag`), heals once per `healEveryMs`, tracks the feed's requests per poll
 * for the planner, and reports a flood-guard hold to the log and `/status`.
 */
export async function readFeedList<T>(
  ctx: EngineContext,
  rt: ProjectRuntime,
  feed: FeedName,
  tag: RequestTag,
  listName: string,
  state: ListState<T> | undefined,
  codec: ListItemCodec<T>,
  page: ListEndpoint<T>,
  /**
   * Whether this read is the whole poll (default). A poll of several lists (the blog's two) passes false
   * and records the poll's cost itself, once for all its lists ({@link recordPollCost}).
   */
  wholePoll = true,
): Promise<ListReadResult<T>> {
  const now = ctx.clock.now();
  const result = await readList({
    state,
    codec,
    fetchPage: async (offset, limit) => {
      const response = await request(ctx, rt, tag, () => page(offset, limit));
      return { items: response.items, total: response.meta.total };
    },
    options: ctx.settings.listOptions,
    now,
    heal: state !== undefined && now - state.lastFullReadAt >= ctx.settings.healEveryMs,
  });
  if (result.kind === 'heal') ctx.counters.heals += 1;
  const f = feedOf(rt, feed);
  // Every request is counted for the plan (issue 22): the regular ones per poll, the one-offs
  // (sweeps, fills, searches) as a rate over hours that the plan takes off its capacity (replan.ts).
  const oneOff = result.oneOffRequests ?? 0;
  if (wholePoll) recordPollCost(f, regularRequests(result));
  if (oneOff > 0) f.oneOffs.record(now, oneOff);
  if (result.lateUnfound !== undefined) {
    const message = `${rt.config.linkCaption} ${listName}: the list grew by ${result.lateUnfound} entries below the window that the late search could not place (older than the first read, or hidden by drops); they are not announced`;
    ctx.logger.warn({ project: rt.config.linkCaption, feed: listName, unfound: result.lateUnfound }, message);
  }
  if (result.flood !== undefined) {
    ctx.counters.floodsHeld += result.flood.held;
    const message = `flood guard on ${rt.config.linkCaption} ${listName}: ${result.flood.reason}; held ${result.flood.held} notices and re-baselined`;
    ctx.logger.warn({ project: rt.config.linkCaption, feed: listName, held: result.flood.held }, message);
    noteError(rt, ctx.clock.now(), note('flood-held', { feed, held: result.flood.held }));
  }
  return result;
}

/** The requests of a list read that were the poll's own (its pages at the new end), not one-offs. */
export function regularRequests(result: ListReadResult<unknown>): number {
  return result.requests - (result.oneOffRequests ?? 0);
}

/**
 * Averages a poll's regular requests into the feed's per-poll cost, which the planner multiplies by
 * the polls it plans. Once per poll: the blog's poll reads two lists, and counted per list its cost
 * read as one request where it was two, so the plan left a blog list a day unplanned (about 300
 * requests) and the re-plans paid them from the rest of the key's day, most of it in its last hours.
 */
export function recordPollCost(f: { requestsPerPoll: number }, requests: number): void {
  f.requestsPerPoll = 0.8 * f.requestsPerPoll + 0.2 * requests;
}

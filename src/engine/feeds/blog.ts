import type { BlogPost, BlogType } from '../../api/index.js';
import { blogPostKey } from '../../api/index.js';
import { blogDeletedEvents, droppedEntries } from '../events/drop-events.js';
import { blogEvent } from '../events/feed-events.js';
import { trimList } from '../events/stored-post-privacy.js';
import type { ListItemCodec } from '../lists/list-order.js';
import type { FreshEntry } from '../lists/list-reader.js';
import type { ListState } from '../lists/list-state.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { feedOf } from '../schedule/schedule-slice.js';
import { commit, currentState } from '../state/project-state-store.js';
import { readFeedList, recordPollCost, regularRequests } from './read-feed-list.js';

const blogCodec: ListItemCodec<BlogPost> = {
  key: blogPostKey,
  ts: (b) => b.release_timestamp,
  tieId: (b) => b.id,
};

/** The blog feed's poll: both blog types (two lists, so at least two requests); a post listed twice is announced once. */
export async function pollBlog(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  const state = await currentState(ctx, rt);
  const read = (blogType: BlogType, listState: ListState<BlogPost> | undefined) =>
    readFeedList(
      ctx,
      rt,
      'blog',
      tag,
      `blog (${blogType})`,
      listState,
      blogCodec,
      (offset, limit) => rt.api.blogPage({ blogType, limit, offset }),
      false,
    );
  const text = await read('text', state.lists.blogText);
  const story = await read('story', state.lists.blogStory);
  // One poll, two lists: its cost is both reads' (the planner plans polls).
  recordPollCost(feedOf(rt, 'blog'), regularRequests(text) + regularRequests(story));
  const now = ctx.clock.now();
  // A post can be listed under both types: announce its id once.
  const seenElsewhere = new Set([
    ...(state.lists.blogText?.entries ?? []).map(blogPostKey),
    ...(state.lists.blogStory?.entries ?? []).map(blogPostKey),
  ]);
  const fresh: FreshEntry<BlogPost>[] = [];
  for (const entry of [...text.fresh, ...story.fresh].sort(
    (a, b) => a.item.release_timestamp - b.item.release_timestamp,
  )) {
    if (seenElsewhere.has(entry.key)) continue;
    seenElsewhere.add(entry.key);
    fresh.push(entry);
  }
  const url = rt.projectCache?.value.url.main ?? state.project?.snapshot.url.main ?? null;
  // A post gone from one type's list but still listed under the other was not deleted.
  const stillListed = new Set([...text.state.entries, ...story.state.entries].map(blogPostKey));
  const deleted = [
    ...droppedEntries(state.lists.blogText, text, blogCodec),
    ...droppedEntries(state.lists.blogStory, story, blogCodec),
  ].filter(
    (post, i, all) => !stillListed.has(blogPostKey(post)) && all.findIndex((p) => p.id === post.id) === i,
  );
  const paidOut = (rt.projectCache?.value ?? state.project?.snapshot)?.process_status === 'payoff';
  const events = [
    ...fresh.map((f) => blogEvent({ project: rt.config.linkCaption, detectedAt: now }, f.item, url)),
    ...blogDeletedEvents({ project: rt.config.linkCaption, detectedAt: now, paidOut }, deleted),
  ];
  await commit(
    ctx,
    rt,
    {
      ...state,
      lists: { ...state.lists, blogText: trimList(text.state), blogStory: trimList(story.state) },
      readAt: { ...state.readAt, blog: now },
    },
    events,
  );
}

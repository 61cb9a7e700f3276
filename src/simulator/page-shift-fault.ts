/**
 * The shift-between-pages fault. Unlike the response faults it changes the
 * project's data, between two page requests of a list endpoint, so it is
 * applied by the list endpoints themselves.
 */
import type { HandlerState } from './handler-state.js';
import type { ListKind } from './routes.js';
import type { SimProject } from './sim-project.js';
import type { ListOrder } from './types.js';

/** The shiftBetweenPages fault: real changes to the list between two page requests. */
export function shiftIfAsked(
  state: HandlerState,
  project: SimProject,
  kind: ListKind,
  path: string,
  offset: number,
  order: ListOrder,
  blogType: 'text' | 'story' = 'text',
): void {
  if (offset <= 0) return;
  const shift = state.faults.take('shift-between-pages', path);
  if (shift === undefined) return;
  const insert = Number(shift.params.insert);
  const remove = Number(shift.params.remove);
  // Remove first, from the start of the listing order (entries the client has already seen),
  // so the removal moves unseen entries forward and the next page skips some.
  const firstSeen = <T>(items: T[]) => (order === 'newest-first' ? items.reverse() : items).slice(0, remove);
  if (remove > 0) {
    if ((kind === 'fundings' || kind === 'orders') && !project.isPaidOut) {
      for (const key of firstSeen(project.activeSupportKeys())) project.failSupport(key);
    } else if (kind === 'wall') {
      for (const id of firstSeen(project.wallPostIds().reverse())) project.removeWallPost(id);
    } else if (kind === 'subscribers') {
      const keys = project.subscribersPage(0, Number.MAX_SAFE_INTEGER, 'oldest-first').items.map((s) => ({
        subscribedTimestamp: s.subscribed_timestamp,
        userId: s.user?.id ?? null,
      }));
      for (const key of firstSeen(keys)) project.removeSubscriber(key);
    }
  }
  for (let i = 0; i < insert; i++) {
    if (kind === 'fundings' || kind === 'orders') {
      if (!project.isPaidOut)
        project.addSupporter({
          displayName: state.names.person().displayName,
          madeByFault: 'shift-between-pages',
        });
    } else if (kind === 'wall') project.addWallPost({ message: state.names.wallMessage() });
    else if (kind === 'subscribers') project.addSubscriber();
    else {
      const post = state.names.blogPost(i);
      project.addBlogPost({ ...post, type: blogType, supporterOnly: false });
    }
  }
}

/**
 * A project's wall (public comments): posting, moderation and the page `/wall`
 * serves.
 */
import type { WallPost } from '../api/schemas/index.js';
import { insertChronological, type Page, slicePage } from './chronological-list.js';
import type { ProjectFacts, SimProjectContext } from './project-context.js';
import type { AddWallPostInput, ListOrder, SimHistoryEntry } from './types.js';
import { SimulatorUsageError } from './usage-error.js';
import { toSeconds } from './wire-units.js';

interface WallRecord {
  readonly at: number;
  readonly post: WallPost;
}

/** The wall posts of one project, oldest first. */
export class ProjectWall {
  readonly #posts: WallRecord[] = [];
  readonly #project: ProjectFacts;
  readonly #ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'users'>;
  readonly #history: SimHistoryEntry[];

  constructor(
    project: ProjectFacts,
    ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'users'>,
    history: SimHistoryEntry[],
  ) {
    this.#project = project;
    this.#ctx = ctx;
    this.#history = history;
  }

  /** Adds a wall post; returns its id. */
  add(input: AddWallPostInput): number {
    const at = input.at ?? this.#ctx.clock.now();
    const users = this.#ctx.users;
    const user =
      input.userId !== undefined
        ? users.get(input.userId)
        : users.create(input.authorName === undefined ? {} : { displayName: input.authorName });
    const id = this.#ctx.ids.next('wall');
    const post: WallPost = {
      id,
      message: input.message,
      status: 'published',
      created_timestamp: toSeconds(at),
      user: {
        id: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        display_name: input.authorName ?? user.displayName,
      },
    };
    insertChronological(this.#posts, { at, post });
    this.#history.push({ type: 'wall-post', at, id, authorName: post.user.display_name });
    return id;
  }

  /** Deletes a wall post (moderation): later entries shift position. */
  remove(id: number, at: number): void {
    const index = this.#posts.findIndex((w) => w.post.id === id);
    if (index < 0) throw new SimulatorUsageError(`no wall post ${id} in ${this.#project.linkCaption}`);
    this.#posts.splice(index, 1);
    this.#history.push({ type: 'wall-post-removed', at, id });
  }

  /** The post ids, newest first. */
  ids(): number[] {
    return this.#posts.map((w) => w.post.id).reverse();
  }

  page(offset: number, limit: number, order: ListOrder): Page<WallPost> {
    return slicePage(this.#posts, offset, limit, order, (w) => ({ ...w.post, user: { ...w.post.user } }));
  }
}

import type { BlogPost } from './schemas/blog-post.js';
import type { Funding } from './schemas/funding.js';
import type { WallPost } from './schemas/wall-post.js';

/**
 * Stable keys for de-duplication and diffing (spec, Pagination). The strings are
 * opaque: compare them for equality, do not parse them. They are stored by the
 * engine, so their format must not change without a state migration.
 */

/** Wall posts have an `id`. */
export function wallPostKey(post: Pick<WallPost, 'id'>): string {
  return `wall:${post.id}`;
}

/** Blog posts have an `id`; the same id is the same post in both `blog_type` lists. */
export function blogPostKey(post: Pick<BlogPost, 'id'>): string {
  return `blog:${post.id}`;
}

/**
 * Public fundings have no id: `support_timestamp` + user id (spec). Two supports
 * of one user within the same second share a key and count as one; the API gives
 * nothing that could tell them apart.
 */
export function fundingKey(funding: Pick<Funding, 'support_timestamp' | 'user'>): string {
  return `funding:${funding.support_timestamp}:${funding.user.id}`;
}

import type { BlogPost } from './schemas/blog-post.js';
import type { Funding } from './schemas/funding.js';
import type { Order } from './schemas/order.js';
import type { Subscriber } from './schemas/subscriber.js';
import type { WallPost } from './schemas/wall-post.js';

/**
 * Stable keys for de-duplication and diffing (spec, Pagination). The strings are
 * opaque: compare them for equality, do not parse them. They are stored by the
 * engine, so their format must not change without a state migration.
 *
 * Keys of orders and subscribers are built only from non-personal parts where
 * possible, so stored state and logs do not collect names.
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

/**
 * Orders have no id. The spec offers two things: `transaction_number` ("key for
 * matching") and `collection_timestamp` + buyer ("to recognise a row"). fundbot
 * uses the transaction number: it is unique per payment, present on every order
 * and not personal data, while the buyer is only a name from the bill address
 * (not unique, may be edited, personal) and `collection_timestamp` is shared by
 * every order of one collection run. Only when the transaction number is empty
 * does the key fall back to `collection_timestamp` + the bill-address names.
 */
export function orderKey(
  order: Pick<Order, 'transaction_number' | 'collection_timestamp' | 'support_timestamp' | 'bill_address'>,
): string {
  const tx = order.transaction_number.trim();
  if (tx !== '') return `order:tx:${tx}`;
  const buyer = [order.bill_address.firstname, order.bill_address.lastname]
    .map((part) => (part ?? '').trim().toLowerCase())
    .join(' ');
  return `order:ct:${order.collection_timestamp}:${order.support_timestamp}:${buyer}`;
}

/**
 * Subscribers have no id: `subscribed_timestamp` + user id (spec). Subscribers
 * without an account (`user: null`) within the same second share a key; the API
 * gives nothing else that is stable (no e-mail without contacts:read).
 */
export function subscriberKey(subscriber: Pick<Subscriber, 'subscribed_timestamp' | 'user'>): string {
  return `subscriber:${subscriber.subscribed_timestamp}:${subscriber.user ? subscriber.user.id : 'anonymous'}`;
}

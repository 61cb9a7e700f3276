import type { BlogPost } from './schemas/blog-post.js';
import type { Incentive } from './schemas/incentive.js';

/**
 * The spec's rules on API data, each in one place. Everything that shows a
 * reward, a blog post or a stock figure asks these functions instead of reading
 * the fields itself, so the engine, the commands and the digest cannot disagree.
 */

/**
 * The spec's visibility rule for public display: `status` is `enabled` and the
 * reward is either not secret until the goal or already unlocked.
 */
export function isPubliclyVisible(
  reward: Pick<Incentive, 'status' | 'hidden_until_goal_reached' | 'is_unlocked'>,
): boolean {
  return reward.status === 'enabled' && (!reward.hidden_until_goal_reached || reward.is_unlocked);
}

/**
 * Out of stock. The spec makes `is_available` the one in-stock flag ("already
 * handles unlimited rewards"); `quantity_remaining` holds a placeholder for
 * unlimited rewards and `is_in_stock` is a shipping label, so neither is read.
 */
export function isSoldOut(reward: Pick<Incentive, 'is_available'>): boolean {
  return !reward.is_available;
}

/** A post whose content is not public: supporter-only, or locked for this caller. */
export function isGatedPost(post: Pick<BlogPost, 'is_supporter_only' | 'is_locked'>): boolean {
  return post.is_supporter_only || post.is_locked;
}

/**
 * The part of a blog post that may be shown publicly, still as the API sent it
 * (HTML). A gated post shows only its `description` teaser, never `text`, even
 * if an API ever returned content to this key; a public one falls back to its
 * text when it has no description. Callers turn it into plain text and shorten it.
 */
export function publicTeaser(
  post: Pick<BlogPost, 'is_supporter_only' | 'is_locked' | 'description' | 'text'>,
): string {
  const description = post.description ?? '';
  return isGatedPost(post) ? description : description || post.text;
}

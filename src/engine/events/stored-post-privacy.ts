import type { ListState } from '../lists/list-state.js';

/** Trimmed text of stored posts: the window is for dedup and "recent" commands, not an archive. */
const STORED_TEXT_MAX = 1000;

type Post = { text?: string; message?: string; is_supporter_only?: boolean };

/**
 * What of a post may be stored: supporter-only text never (even if an API ever
 * returned it to this key), long texts cut at 1,000 characters (bounds the store),
 * and wall authors' real names never (personal data fundbot does not show).
 */
export function trimPost<T extends Post>(post: T): T {
  const copy = { ...post };
  if (copy.is_supporter_only === true && typeof copy.text === 'string') copy.text = '';
  if (typeof copy.text === 'string' && copy.text.length > STORED_TEXT_MAX)
    copy.text = copy.text.slice(0, STORED_TEXT_MAX);
  if (typeof copy.message === 'string' && copy.message.length > STORED_TEXT_MAX)
    copy.message = copy.message.slice(0, STORED_TEXT_MAX);
  // Only the public display name is kept.
  const author = (copy as { user?: { first_name?: unknown; last_name?: unknown } }).user;
  if (author && typeof author.first_name === 'string') {
    (copy as { user?: object }).user = { ...author, first_name: '', last_name: '' };
  }
  return copy;
}

/** {@link trimPost} on every entry of a list's window. */
export function trimList<T extends Post>(state: ListState<T>): ListState<T> {
  return { ...state, entries: state.entries.map(trimPost) };
}

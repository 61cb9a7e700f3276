import {
  errorCodeEntry,
  failureByStatus,
  type ReadFailure,
  type UserTextKey,
} from '../domain/error-codes.js';
import type { Catalog } from './i18n/catalog.js';

/** The fields of an error the edge reads, by shape: a fake read model may throw plain objects with them. */
function fieldsOf(error: unknown): { status?: unknown; code?: unknown; name?: unknown } {
  return typeof error === 'object' && error !== null ? (error as { status?: unknown; code?: unknown }) : {};
}

/** The listed code of an error (src/domain/error-codes.ts); a switched-off feed also by its class name. */
function codeOf(error: unknown): unknown {
  const { code, name } = fieldsOf(error);
  return code === undefined && name === 'FeedDisabledError' ? 'feed_disabled' : code;
}

/**
 * Classifies an error thrown by {@link ProjectReadModel} (the API client's typed errors: `status` and `code` as in
 * src/api/errors.ts; fundbot's own in src/domain/errors.ts). A 404 or a 429 says it all; otherwise the code's
 * entry in the one list (src/domain/error-codes.ts), and for a code not listed, the HTTP status.
 */
export function classifyReadFailure(error: unknown): ReadFailure {
  const { status } = fieldsOf(error);
  if (status === 404 || status === 429) return failureByStatus(status);
  return errorCodeEntry(codeOf(error))?.failure ?? failureByStatus(status);
}

/**
 * The feed and scope of a feed the engine switched off (`code === 'feed_disabled'`,
 * see FeedDisabledError in src/domain/errors.ts), read by shape like the rest.
 */
function disabledFeedOf(error: unknown): { feed: string; scope: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, feed, scope } = error as { code?: unknown; feed?: unknown; scope?: unknown };
  if (code !== 'feed_disabled' || typeof feed !== 'string' || typeof scope !== 'string') return undefined;
  return { feed, scope };
}

/** Each user text of the list, in the channel's language (the edge: the only place a code becomes words). */
const userTexts: Readonly<Record<UserTextKey, (t: Catalog, notFound: string, error: unknown) => string>> = {
  notFound: (_t, notFound) => notFound,
  notPermitted: (t) => t.errors.notPermitted,
  rateLimited: (t) => t.errors.rateLimited,
  platformDown: (t) => t.errors.platformDown,
  feedOff: (t, _notFound, error) => {
    const disabled = disabledFeedOf(error);
    return disabled ? t.errors.feedOff(disabled.feed, disabled.scope) : t.errors.notPermitted;
  },
  projectPaused: (t) => t.errors.projectPaused,
};

/** The user text of a failure whose code is not listed. */
const textOfFailure: Readonly<Record<ReadFailure, UserTextKey>> = {
  'not-found': 'notFound',
  'not-permitted': 'notPermitted',
  'rate-limited': 'rateLimited',
  unavailable: 'platformDown',
};

/**
 * The user-facing sentence for a failure; never the error's own text (it is for operators). With the `error`, its
 * code's text from the list: a switched-off feed names the data that is off and the scope to add, a paused project
 * says the key was rejected.
 */
export function explainReadFailure(
  failure: ReadFailure,
  t: Catalog,
  notFound: string,
  error?: unknown,
): string {
  const listed = errorCodeEntry(codeOf(error));
  // A 404 or 429 is said as such whatever the code (classifyReadFailure reads them first).
  const key = listed !== undefined && failure === listed.failure ? listed.userText : textOfFailure[failure];
  return userTexts[key](t, notFound, error);
}

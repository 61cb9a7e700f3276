export { errorSummary } from '../domain/error-summary.js';

import type { Catalog } from './i18n/catalog.js';

/** What a failed read from the engine means for the user. */
export type ReadFailure = 'not-found' | 'not-permitted' | 'rate-limited' | 'unavailable';

/**
 * Classifies an error thrown by {@link ProjectReadModel} (the API client's typed
 * errors: `status` and `code` as in src/api/errors.ts). Read by shape, not by
 * class, so the core does not depend on the client's class hierarchy and a
 * fake read model can throw plain objects with the same fields.
 */
export function classifyReadFailure(error: unknown): ReadFailure {
  const status =
    typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  // The spec answers an unknown project with 403 project_access_denied, the same as an invisible one.
  if (
    status === 404 ||
    code === 'not_found' ||
    code === 'project_not_found' ||
    code === 'project_access_denied'
  ) {
    return 'not-found';
  }
  if (status === 429 || code === 'rate_limit_exceeded') return 'rate-limited';
  // A feed the engine switched off because the key lacks its scope.
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (code === 'feed_disabled' || name === 'FeedDisabledError') return 'not-permitted';
  if (status === 401 || status === 403) return 'not-permitted';
  return 'unavailable';
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

/**
 * The user-facing sentence for a failure; never the error's own text (it is for operators).
 * With the `error`, a switched-off feed names the data that is off and the scope to add.
 */
export function explainReadFailure(
  failure: ReadFailure,
  t: Catalog,
  notFound: string,
  error?: unknown,
): string {
  const disabled = disabledFeedOf(error);
  // The engine stopped polling because the key is rejected (ProjectPausedError): say so, not "not answering".
  if (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'project_paused'
  ) {
    return t.errors.projectPaused;
  }
  switch (failure) {
    case 'not-found':
      return notFound;
    case 'not-permitted':
      return disabled ? t.errors.feedOff(disabled.feed, disabled.scope) : t.errors.notPermitted;
    case 'rate-limited':
      return t.errors.rateLimited;
    case 'unavailable':
      return t.errors.platformDown;
  }
}

import { platformErrorCodes, type RequestContext } from '../api/index.js';

/**
 * The one list of error codes fundbot translates at the edge (issue 31): each code with what it means for a user's
 * read (`failure`), the sentence the user reads (`userText`: a key of the catalog's `errors`, written in the
 * channel's language by core/read-failure.ts) and what an operator does about it (`fix`). Errors carry only the
 * code (`FundbotError.code` in ./errors.ts, the platform's `code` in src/api/errors.ts); nothing between the error
 * and the edge turns a code into text. The platform's codes take their fix from `platformErrorCodes` in
 * src/api/errors.ts: it is said there in the words of the failed request (its scope, its project, its key's kind)
 * as the error is built, and src/api may not import src/domain (which sits above it, layers.ts), so each fix is
 * written once, there, and referenced here.
 */

/** What a failed read means for the user. */
export type ReadFailure = 'not-found' | 'not-permitted' | 'rate-limited' | 'unavailable';

/**
 * The catalog's sentence for a code (core/i18n, `errors`): `notFound` is the command's own not-found sentence (the
 * project it named), `feedOff` names the feed and the scope the error carries.
 */
export type UserTextKey =
  | 'notFound'
  | 'notPermitted'
  | 'rateLimited'
  | 'platformDown'
  | 'feedOff'
  | 'projectPaused';

export interface ErrorCodeEntry {
  readonly failure: ReadFailure;
  readonly userText: UserTextKey;
  /** For the operator who reads the log or /healthz: what fixes it (a platform code's: for the request that failed). */
  readonly fix: string | ((request: RequestContext) => string);
}

const newKey = 'create a new key (project administration → API keys) and replace the configured one';
const platform = platformErrorCodes;

// biome-ignore format: one code to a line
export const errorCodes = {
  // fundbot's own (./errors.ts)
  feed_disabled: { failure: 'not-permitted', userText: 'feedOff', fix: 'add the scope the feed needs to the project key; the feed is re-checked on its own and comes back' },
  project_paused: { failure: 'unavailable', userText: 'projectPaused', fix: `the platform rejects the project key: ${newKey}` },
  project_not_watched: { failure: 'unavailable', userText: 'notFound', fix: 'add the project to the configuration (FUNDBOT_PROJECTS) or connect it from chat' },
  lease_lost: { failure: 'unavailable', userText: 'platformDown', fix: 'none: another replica polls the project now; the read is answered there' },
  // the platform's (api-spec.md, error table): the fix in src/api/errors.ts
  not_found: { failure: 'not-found', userText: 'notFound', fix: platform.not_found.fix },
  project_not_found: { failure: 'not-found', userText: 'notFound', fix: platform.project_not_found.fix },
  project_access_denied: { failure: 'not-found', userText: 'notFound', fix: platform.project_access_denied.fix },
  rate_limit_exceeded: { failure: 'rate-limited', userText: 'rateLimited', fix: platform.rate_limit_exceeded.fix },
  auth_required: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.auth_required.fix },
  invalid_api_key: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.invalid_api_key.fix },
  invalid_token: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.invalid_token.fix },
  user_not_found: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.user_not_found.fix },
  key_project_mismatch: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.key_project_mismatch.fix },
  forbidden: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.forbidden.fix },
  insufficient_scope: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.insufficient_scope.fix },
  insufficient_role: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.insufficient_role.fix },
  insufficient_project_plan: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.insufficient_project_plan.fix },
  invalid_csrf_token: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.invalid_csrf_token.fix },
  funding_not_successful: { failure: 'not-permitted', userText: 'notPermitted', fix: platform.funding_not_successful.fix },
} as const satisfies Readonly<Record<string, ErrorCodeEntry>>;

export type ErrorCode = keyof typeof errorCodes;

/** fundbot's own codes (the `code` of a FundbotError). */
export type FundbotErrorCode = 'feed_disabled' | 'project_paused' | 'project_not_watched' | 'lease_lost';

/** The entry of a code, or undefined for a code not in the list (the HTTP status decides then). */
export function errorCodeEntry(code: unknown): ErrorCodeEntry | undefined {
  return typeof code === 'string' && Object.hasOwn(errorCodes, code)
    ? errorCodes[code as ErrorCode]
    : undefined;
}

/** For an error without a listed code: what its HTTP status means for the user (the spec's families). */
export function failureByStatus(status: unknown): ReadFailure {
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limited';
  if (status === 401 || status === 403) return 'not-permitted';
  return 'unavailable';
}

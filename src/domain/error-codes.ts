/**
 * The one list of error codes fundbot translates at the edge (issue 31): each code with what it means for a user's
 * read (`failure`), the sentence the user reads (`userText`: a key of the catalog's `errors`, written in the
 * channel's language by core/read-failure.ts) and what an operator does about it (`fix`). Errors carry only the
 * code (`FundbotError.code` in ./errors.ts, the platform's `code` in src/api/errors.ts, whose `hintFor` adds what
 * the request itself tells: the scope, the project); nothing between the error and the edge turns a code into text.
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
  /** For the operator who reads the log or /healthz: what fixes it. */
  readonly fix: string;
}

const newKey = 'create a new key (project administration → API keys) and replace the configured one';

// biome-ignore format: one code to a line
export const errorCodes = {
  // fundbot's own (./errors.ts)
  feed_disabled: { failure: 'not-permitted', userText: 'feedOff', fix: 'add the scope the feed needs to the project key; the feed is re-checked on its own and comes back' },
  project_paused: { failure: 'unavailable', userText: 'projectPaused', fix: `the platform rejects the project key: ${newKey}` },
  project_not_watched: { failure: 'unavailable', userText: 'notFound', fix: 'add the project to the configuration (FUNDBOT_PROJECTS) or connect it from chat' },
  lease_lost: { failure: 'unavailable', userText: 'platformDown', fix: 'none: another replica polls the project now; the read is answered there' },
  // the platform's (api-spec.md, error table)
  not_found: { failure: 'not-found', userText: 'notFound', fix: 'check the link caption and ids' },
  project_not_found: { failure: 'not-found', userText: 'notFound', fix: 'check the link caption' },
  project_access_denied: { failure: 'not-found', userText: 'notFound', fix: 'the project does not exist or is not visible to this key (drafts need project:read): check the link caption and the key' },
  rate_limit_exceeded: { failure: 'rate-limited', userText: 'rateLimited', fix: 'none if rare (fundbot waits the Retry-After); if it repeats, raise the reserve or lengthen the target intervals' },
  auth_required: { failure: 'not-permitted', userText: 'notPermitted', fix: 'configure a Project API key for the project' },
  invalid_api_key: { failure: 'not-permitted', userText: 'notPermitted', fix: `the key is invalid, disabled or deleted: ${newKey}` },
  invalid_token: { failure: 'not-permitted', userText: 'notPermitted', fix: newKey },
  user_not_found: { failure: 'not-permitted', userText: 'notPermitted', fix: 'the key owner no longer exists: create a key from an existing account' },
  key_project_mismatch: { failure: 'not-permitted', userText: 'notPermitted', fix: "the key belongs to another project: use a key created in this project's administration" },
  forbidden: { failure: 'not-permitted', userText: 'notPermitted', fix: "check the key's scopes and project" },
  insufficient_scope: { failure: 'not-permitted', userText: 'notPermitted', fix: 'add the missing scope to the key (the log names it)' },
  insufficient_role: { failure: 'not-permitted', userText: 'notPermitted', fix: 'ask a project owner or manager to create the key' },
  insufficient_project_plan: { failure: 'not-permitted', userText: 'notPermitted', fix: 'Project API keys need the Pro plan or higher: upgrade the project or use a User API key' },
  invalid_csrf_token: { failure: 'not-permitted', userText: 'notPermitted', fix: 'a browser-only check: fundbot should never meet it; report it' },
  funding_not_successful: { failure: 'not-permitted', userText: 'notPermitted', fix: 'orders are readable once the project reached its goal' },
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

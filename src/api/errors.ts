import type { CredentialKind, EndpointId } from './endpoints.js';

/**
 * Typed errors of the API client.
 *
 * ApiRequestError                 every failure of a request (method, path, endpoint, hint)
 * ├─ ApiError                     the server answered with an error status (code, status, description)
 * │  ├─ UnauthorizedError         401 family
 * │  ├─ ForbiddenError            403 family
 * │  ├─ NotFoundError             404
 * │  ├─ ValidationError           400, 422
 * │  ├─ ConflictError             409
 * │  └─ RateLimitError            429 (retryAfterMs)
 * ├─ ApiNetworkError              no usable response (cause = the original error)
 * │  └─ ApiTimeoutError           the per-request timeout fired
 * └─ ResponseValidationError      a 200 whose body does not match the schema (issues name the field paths)
 *    └─ MalformedResponseError    a body that is not JSON at all
 *
 * No error ever carries a credential: the client only puts the key's fingerprint
 * in, and the transport passes any text the server sent back through the one
 * SecretRedactor (src/lib/secret-redactor.ts) before it builds the error
 * (transport-errors.ts).
 */

/** Where a failed request went. `path` is the URL path without query string. */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly endpoint: EndpointId;
  readonly credential: CredentialKind;
  /** Non-secret fingerprint of the key used (see ProjectKey.fingerprint). */
  readonly keyFingerprint?: string | undefined;
  readonly linkCaption?: string | undefined;
  /** The scope the endpoint needs, from the spec's endpoint table. */
  readonly scope?: string | undefined;
}

export class ApiRequestError extends Error {
  override readonly name: string = 'ApiRequestError';
  readonly method: string;
  readonly path: string;
  readonly endpoint: EndpointId;
  readonly credential: CredentialKind;
  readonly keyFingerprint: string | undefined;
  /** What an operator should do about it. */
  readonly hint: string;

  constructor(message: string, context: RequestContext, hint: string, options?: ErrorOptions) {
    super(`${context.method} ${context.path}: ${message}${hint ? `. ${hint}` : ''}`, options);
    this.method = context.method;
    this.path = context.path;
    this.endpoint = context.endpoint;
    this.credential = context.credential;
    this.keyFingerprint = context.keyFingerprint;
    this.hint = hint;
  }
}

export interface ApiErrorDetails {
  readonly status: number;
  /** The `error` string of the body (`http_<status>` when the body had none). */
  readonly code: string;
  /** `error_description`: for humans only, may be null, may change. Never branch on it. */
  readonly description: string | null;
}

/** The server answered with an error status. Subclasses name the family; branch on `code` within it. */
export class ApiError extends ApiRequestError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly description: string | null;

  constructor(details: ApiErrorDetails, context: RequestContext, hint: string, options?: ErrorOptions) {
    const said = details.description ? ` (server: ${details.description.slice(0, 300)})` : '';
    super(`HTTP ${details.status} ${details.code}${said}`, context, hint, options);
    this.status = details.status;
    this.code = details.code;
    this.description = details.description;
  }
}

/** 401: credential missing, invalid or expired. */
export class UnauthorizedError extends ApiError {
  override readonly name = 'UnauthorizedError';
}
/** 403: credential valid but not sufficient (scope, plan, project, funding state). */
export class ForbiddenError extends ApiError {
  override readonly name = 'ForbiddenError';
}
/** 404. */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
}
/** 400 and 422: a value in the request was rejected. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
}
/** 409. */
export class ConflictError extends ApiError {
  override readonly name = 'ConflictError';
}
/** 429 that the client would not (or no longer) wait for. */
export class RateLimitError extends ApiError {
  override readonly name = 'RateLimitError';
  /** How long the server asked to wait, when known. */
  readonly retryAfterMs: number | undefined;
  constructor(
    details: ApiErrorDetails & { retryAfterMs: number | undefined },
    context: RequestContext,
    hint: string,
    options?: ErrorOptions,
  ) {
    super(details, context, hint, options);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** No usable response: connection refused or reset, DNS, TLS... `cause` is the original error. */
export class ApiNetworkError extends ApiRequestError {
  override readonly name: string = 'ApiNetworkError';
}

/** The per-request timeout (headers and body) fired. */
export class ApiTimeoutError extends ApiNetworkError {
  override readonly name = 'ApiTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, context: RequestContext, hint: string, options?: ErrorOptions) {
    super(`no complete response within ${timeoutMs} ms`, context, hint, options);
    this.timeoutMs = timeoutMs;
  }
}

export interface ResponseIssue {
  /** Dotted field path into the body, e.g. `data.3.user.id` (`(root)` for the body itself). */
  readonly path: string;
  readonly message: string;
}

/** A success response whose body does not match the schema of the endpoint. */
export class ResponseValidationError extends ApiRequestError {
  override readonly name: string = 'ResponseValidationError';
  readonly status: number;
  readonly issues: readonly ResponseIssue[];
  constructor(
    status: number,
    issues: readonly ResponseIssue[],
    context: RequestContext,
    options?: ErrorOptions,
  ) {
    const listed = issues
      .slice(0, 5)
      .map((i) => `${i.path}: ${i.message}`)
      .join('; ');
    const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : '';
    super(
      `response of ${context.endpoint} does not match the API spec at ${listed}${more}`,
      context,
      'the API may have changed: run the drift check (checkApiDrift) and update src/api/schemas',
      options,
    );
    this.status = status;
    this.issues = issues;
  }
}

/** A body that is not JSON (truncated, an HTML error page from a proxy...). */
export class MalformedResponseError extends ResponseValidationError {
  override readonly name = 'MalformedResponseError';
}

type FamilyConstructor = new (
  details: ApiErrorDetails,
  context: RequestContext,
  hint: string,
  options?: ErrorOptions,
) => ApiError;

/** One of the platform's error codes: the family it raises and what the operator does about it. */
export interface PlatformErrorCode {
  /** Absent: the HTTP status decides (`invalid_api_key` is 401 or 403; `rate_limit_exceeded` is 429). */
  readonly family?: FamilyConstructor;
  /** The operator's fix, in the words of the request that failed (its scope, its project, its key's kind). */
  readonly fix?: (request: RequestContext) => string;
}

function keyHome(credential: CredentialKind): string {
  return credential === 'user'
    ? 'account settings → API and integrations'
    : 'project administration → API keys';
}

function keyKind(credential: CredentialKind): string {
  return credential === 'user' ? 'User API key' : 'Project API key';
}

const projectOf = (request: RequestContext) =>
  request.linkCaption ? `"${request.linkCaption}"` : 'the project';
const checkLinkCaption = (request: RequestContext) =>
  `check the link caption${request.endpoint === 'incentive' ? ' and the reward id' : ''}`;

/**
 * The platform's error codes (api-spec.md, error table), each once: its family and its operator fix. The fix is
 * written here, where the failed request is known, because src/api imports nothing above src/lib; the one list of
 * codes (src/domain/error-codes.ts, which adds what the user reads) takes each fix from here.
 */
// biome-ignore format: one code to a line
export const platformErrorCodes = {
  auth_required: { family: UnauthorizedError, fix: (r) => r.credential === 'none' ? `this request needs a credential (a draft project is visible only with a key): configure a Project API key with the ${r.scope ?? 'project:read'} scope` : 'the server saw no credential: check that the key is configured' },
  invalid_token: { family: UnauthorizedError, fix: () => 'the token is invalid or expired: create a new key and replace the configured one' },
  invalid_api_key: { fix: (r) => `the key is invalid, disabled or deleted: create a new ${keyKind(r.credential)} in ${keyHome(r.credential)} and replace the configured one` },
  user_not_found: { family: UnauthorizedError, fix: () => 'the user this key belongs to no longer exists: create a key from an existing account' },
  forbidden: { family: ForbiddenError, fix: () => 'the credential is not sufficient for this request: check its scopes and project' },
  insufficient_project_plan: { family: ForbiddenError, fix: (r) => `Project API keys need the Pro plan or higher: upgrade ${projectOf(r)} or use a User API key` },
  insufficient_role: { family: ForbiddenError, fix: () => 'the key owner lacks the role for this: ask a project owner or manager to create the key' },
  insufficient_scope: { family: ForbiddenError, fix: (r) => r.scope ? `create a ${keyKind(r.credential)} with the ${r.scope} scope in ${keyHome(r.credential)}` : `the key lacks a scope this endpoint needs: add it in ${keyHome(r.credential)}` },
  invalid_csrf_token: { family: ForbiddenError, fix: () => 'a browser-only check that fundbot should never meet: report it' },
  key_project_mismatch: { family: ForbiddenError, fix: (r) => `the key belongs to another project: use a Project API key created in the administration of ${projectOf(r)}` },
  project_access_denied: { family: ForbiddenError, fix: (r) => `${projectOf(r)} does not exist or is not visible to this credential (drafts need a key with project:read): check the link caption and the key` },
  funding_not_successful: { family: ForbiddenError, fix: () => 'orders are available only once the project is successfully funded (100% or more): try again after the goal is reached' },
  invalid_value: { family: ValidationError },
  missing_field: { family: ValidationError },
  gallery_full: { family: ValidationError },
  not_found: { family: NotFoundError, fix: checkLinkCaption },
  project_not_found: { family: NotFoundError, fix: checkLinkCaption },
  rate_limit_exceeded: { fix: () => 'the rate limit is exhausted: poll less often or wait for the reset (see client.budget())' },
} as const satisfies Readonly<Record<string, PlatformErrorCode>>;

/** Unknown codes, the framework's prose codes ("access denied") and empty bodies: the HTTP status decides. */
function familyByStatus(status: number): FamilyConstructor {
  if (status === 401) return UnauthorizedError;
  if (status === 403) return ForbiddenError;
  if (status === 404) return NotFoundError;
  if (status === 400 || status === 422) return ValidationError;
  if (status === 409) return ConflictError;
  return ApiError;
}

function platformCode(code: string): PlatformErrorCode | undefined {
  return Object.hasOwn(platformErrorCodes, code)
    ? platformErrorCodes[code as keyof typeof platformErrorCodes]
    : undefined;
}

/** What to do, per code (its fix in {@link platformErrorCodes}), else per status; for the operator who reads the log. */
export function hintFor(code: string, status: number, context: RequestContext): string {
  const fix = platformCode(code)?.fix;
  if (fix) return fix(context);
  if (status === 401)
    return `the credential was rejected: check the configured ${keyKind(context.credential)}`;
  if (status === 403)
    return 'the credential is not sufficient for this request: check its scopes and project';
  if (status === 404) return 'check the link caption and ids';
  if (status === 429) return 'the rate limit is exhausted: poll less often';
  if (status >= 500) return 'the platform has a problem: the client already retried; try again later';
  return '';
}

/** Builds the typed error for an error response. */
export function createApiError(
  details: ApiErrorDetails & { retryAfterMs?: number | undefined },
  context: RequestContext,
): ApiError {
  const hint = hintFor(details.code, details.status, context);
  if (details.status === 429 || details.code === 'rate_limit_exceeded') {
    return new RateLimitError({ ...details, retryAfterMs: details.retryAfterMs }, context, hint);
  }
  let family = platformCode(details.code)?.family;
  if (details.code === 'invalid_api_key')
    family = details.status === 403 ? ForbiddenError : UnauthorizedError;
  return new (family ?? familyByStatus(details.status))(details, context, hint);
}

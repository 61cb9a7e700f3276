/**
 * The typed client of the Project Data API (spec: docs/api-spec.md).
 * Everything other parts of fundbot use is exported from here.
 */
export { type ApiClient, type ApiClientOptions, createApiClient } from './api-client.js';
export {
  type ApiKey,
  ApiKeyFormatError,
  PROJECT_KEY_PREFIX,
  ProjectKey,
  parseApiKey,
  parseProjectKey,
  parseUserKey,
  USER_KEY_PREFIX,
  UserKey,
} from './credentials.js';
export { type CredentialKind, type EndpointId, type EndpointSpec, endpoints } from './endpoints.js';
export {
  ApiError,
  type ApiErrorDetails,
  ApiNetworkError,
  ApiRequestError,
  ApiTimeoutError,
  ConflictError,
  ForbiddenError,
  MalformedResponseError,
  NotFoundError,
  type PlatformErrorCode,
  platformErrorCodes,
  RateLimitError,
  type RequestContext,
  type ResponseIssue,
  ResponseValidationError,
  UnauthorizedError,
  ValidationError,
} from './errors.js';
export { DEFAULT_HEDGE_AFTER_MS } from './hedge-policy.js';
export type { ResponseInfo } from './http-transport.js';
export {
  type ApiDriftCheck,
  type ApiDriftReport,
  checkApiDrift,
  diffOpenApi,
  type OperationRef,
  type ParameterChange,
  type ParameterContractChange,
  type ResponseFieldChange,
  type ResponseFieldTypeChange,
} from './openapi-drift.js';
export {
  type ApiDriftChange,
  keepLastDriftChange,
  OPENAPI_STORE_KEY,
  readLastDriftChange,
} from './openapi-drift-store.js';
export type { CallOptions, Page, PageParams } from './page.js';
export type { BlogParams, ProjectApi, PublicProjectApi } from './project-api.js';
export { parseRateBudget, parseRetryAfterMs, type RateBudget, windowAtReserve } from './rate-budget.js';
export * from './schemas/index.js';
export { isGatedPost, isPubliclyVisible, isSoldOut, publicTeaser } from './spec-rules.js';
export { blogPostKey, fundingKey, wallPostKey } from './stable-keys.js';
export type {
  OwnIncentiveSort,
  OwnIncentivesParams,
  OwnProjectSort,
  OwnProjectsParams,
  UserApi,
} from './user-api.js';

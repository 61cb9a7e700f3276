/**
 * Replies as data (status, body, headers) and the builders for the API's JSON
 * envelopes and error bodies. Shared by the pipeline, the endpoints and the
 * faults, so every error the simulator sends is worded in one place.
 */
import type { Page } from './sim-project.js';

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** Raw body text (e.g. malformed JSON or an HTML proxy page). */
  readonly raw?: string;
  readonly contentType?: string;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply =>
  headers === undefined ? { status, body } : { status, body, headers };
export const apiError = (status: number, error: string, description: string | null): Reply =>
  json(status, { error, error_description: description });
/** Framework-level errors: prose codes, description always null. */
export const frameworkError = (status: number, error: string): Reply => apiError(status, error, null);

export const errors = {
  authRequired: () =>
    apiError(401, 'auth_required', 'This endpoint needs an API key: send it as Authorization: Bearer <key>.'),
  invalidKey: () =>
    apiError(401, 'invalid_api_key', 'The API key is invalid or was deleted: create a new key and use it.'),
  scope: (scope: string, keyType = 'key') =>
    apiError(
      403,
      'insufficient_scope',
      `This endpoint needs the ${scope} scope: create a ${keyType} with the ${scope} scope.`,
    ),
  mismatch: () =>
    apiError(
      403,
      'key_project_mismatch',
      'This Project API Key belongs to another project: use a key of this project.',
    ),
  accessDenied: () =>
    apiError(
      403,
      'project_access_denied',
      'The project does not exist or is not visible to this credential.',
    ),
  invalidValue: (name: string, allowed: readonly string[]) =>
    apiError(400, 'invalid_value', `Invalid value for ${name}: allowed are ${allowed.join(', ')}.`),
};

/** The list envelope: one page of items with the total, limit and offset. */
export function listBody<T>(page: Page<T>, limit: number, offset: number) {
  return { data: page.items, meta: { total: page.total, limit, offset } };
}

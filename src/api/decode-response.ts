import type { z } from 'zod';
import { MalformedResponseError, type RequestContext, ResponseValidationError } from './errors.js';
import type { RawResponse } from './transport-types.js';

/**
 * The body of a success response, parsed as JSON and validated by `schema`.
 * Throws MalformedResponseError (not JSON) or ResponseValidationError naming each failing field path.
 */
export function decodeResponse<T>(response: RawResponse, schema: z.ZodType<T>, context: RequestContext): T {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch (error) {
    throw new MalformedResponseError(
      response.status,
      [{ path: '(root)', message: `body is not valid JSON (${response.text.length} characters)` }],
      context,
      { cause: error },
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
      message: issue.message,
    }));
    throw new ResponseValidationError(response.status, issues, context);
  }
  return parsed.data;
}

import { errorSummary } from '../domain/error-summary.js';

/** What a failed post tells the lane, for the observer and the doubt (channel-lane.ts). */

/** An error's class and code, for the observer (never a message: it may carry a URL with a token). */
export function describe(error: unknown): string {
  const {
    error: name,
    code,
    status,
  } = errorSummary(error) as { error: string; code?: string; status?: number };
  return [name, code, status].filter((p) => p !== undefined).join(' ');
}

/** After an HTTP answer the platform has nothing of the request left to do; a little slack for its clock. */
export const answeredLandsWithinMs = 2_000;

/** Whether the failure carries an HTTP answer (a status), not a timeout or a reset before any answer. */
export function answered(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  return typeof status === 'number' || typeof statusCode === 'number';
}

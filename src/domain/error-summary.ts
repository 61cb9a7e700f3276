import { scrubSecrets } from '../lib/scrub-secrets.js';

/**
 * A secret-free one-liner for logs: the error's class name and API code. An error with neither code nor
 * status (a plain `Error`) would log as `"error":"Error"` and say nothing (issue 24), so its message comes
 * along as `detail`, through the secret redactor and cut to 200 characters.
 */
export function errorSummary(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { error: typeof error };
  const { name, code, status, message } = error as {
    name?: unknown;
    code?: unknown;
    status?: unknown;
    message?: unknown;
  };
  const explained = typeof code === 'string' || typeof status === 'number';
  return {
    error: typeof name === 'string' ? name : 'Error',
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    ...(!explained && typeof message === 'string' && message !== ''
      ? { detail: scrubSecrets(message).slice(0, 200) }
      : {}),
  };
}

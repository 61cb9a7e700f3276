import { scrubSecrets } from '../lib/scrub-secrets.js';

/**
 * An error as one short line for `/healthz` details and status texts: its class and
 * message, scrubbed of secrets, at most 200 characters. No stack, no cause chain
 * (which could carry request details).
 */
export function errorSummary(error: unknown): string {
  if (error instanceof Error) return scrubSecrets(`${error.name}: ${error.message}`).slice(0, 200);
  return 'unknown error';
}

import { secretRedactor } from './secret-redactor.js';

export { findSecretKind, REDACTED } from './secret-shapes.js';

/**
 * Redacts `text` with the process's one {@link secretRedactor}: every registered
 * secret (whole, without its prefix, or any 16-character piece of it) and every
 * credential-shaped substring become `[redacted]`.
 *
 * `knownSecrets` are registered first (idempotent: after the first call it costs
 * one Set lookup per value), so a caller holding secrets without a recognisable
 * shape, such as the logger with a Slack signing secret, can pass them here.
 */
export function scrubSecrets(text: string, knownSecrets: readonly string[] = []): string {
  if (knownSecrets.length > 0) secretRedactor.register(...knownSecrets);
  return secretRedactor.redact(text);
}

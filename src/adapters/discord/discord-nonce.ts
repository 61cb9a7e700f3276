import { createHash } from 'node:crypto';

/** Discord accepts nonces of at most 25 characters. */
export const maxNonceLength = 25;

/**
 * A Create Message nonce derived from a delivery's idempotency key (the event id):
 * the same key always gives the same nonce, so with `enforce_nonce` a retried
 * delivery returns the message that was already posted instead of a duplicate.
 * 120 bits of SHA-256 in base 36 is at most 24 characters.
 */
export function nonceFromKey(idempotencyKey: string): string {
  const hex = createHash('sha256').update(idempotencyKey, 'utf8').digest('hex').slice(0, 30);
  return BigInt(`0x${hex}`).toString(36);
}

import type { KeyValueStore } from './store-port.js';
import { sealedValueSchema, type TokenCipher } from './token-cipher.js';

/** Where the check value lives: a known text sealed with the key the installations are sealed with. */
export const encryptionCheckKey = 'slack/encryption-check';
const checkText = 'fundbot encryption key check v1';

/** FUNDBOT_ENCRYPTION_KEY is not the key this store's secrets were sealed with. */
export class EncryptionKeyMismatchError extends Error {
  override readonly name = 'EncryptionKeyMismatchError';
  readonly code = 'fundbot_encryption_key_mismatch';
  constructor() {
    super(
      'FUNDBOT_ENCRYPTION_KEY is not the key this store was set up with: the Slack installations and connected ' +
        'project keys in it cannot be read. Restore the previous FUNDBOT_ENCRYPTION_KEY and restart fundbot. ' +
        `Only if that key is lost for good: delete the store key "${encryptionCheckKey}" and every ` +
        'slack/installations/* and hosted/* entry, restart, and have each workspace install fundbot and connect its projects again.',
    );
  }
}

/**
 * Verifies the encryption key at start against a stored check value, before any request is served: a wrong
 * key used to start silently, answer no command and log every delivery failure as a bare "Error". The first
 * start on a store seals the check value (set-if-absent: replicas starting together agree on one); every
 * later start must open it.
 *
 * Cost: one store read per start (and one write on the first).
 */
export async function verifyEncryptionKey(store: KeyValueStore, cipher: TokenCipher): Promise<void> {
  const stored = await store.get(encryptionCheckKey, sealedValueSchema);
  if (stored === undefined) {
    const sealed = cipher.seal(checkText, encryptionCheckKey);
    // A check value of no expiry: set-if-absent with a TTL of about 300 years.
    if (await store.setIfAbsent(encryptionCheckKey, sealed, 10_000_000_000_000)) return;
    // Another replica sealed it first: check against its value.
    return verifyEncryptionKey(store, cipher);
  }
  let opened: string;
  try {
    opened = cipher.open(stored, encryptionCheckKey);
  } catch {
    throw new EncryptionKeyMismatchError();
  }
  if (opened !== checkText) throw new EncryptionKeyMismatchError();
}

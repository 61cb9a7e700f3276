/**
 * Authentication: the credential a request presents. Separate from the pipeline
 * so the one rule about what counts as a credential sits beside its type.
 */
import type { KeyRecord, KeyRegistry } from './keys.js';

/** No credential, or the record of the key the request presented. */
export type Credential = { readonly kind: 'none' } | KeyRecord;

/**
 * Reads the credential: only `Authorization: Bearer`; any other scheme counts as
 * no credential. 'invalid' when the key is unknown or was deleted.
 */
export function readCredential(authorization: string | undefined, keys: KeyRegistry): Credential | 'invalid' {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (match?.[1] === undefined) return { kind: 'none' };
  return keys.lookup(match[1]) ?? 'invalid';
}

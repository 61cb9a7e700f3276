import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** AES-256-GCM: 32-byte key, 12-byte random nonce per value, 16-byte tag. */
const keyBytes = 32;
const ivBytes = 12;

/** A value encrypted at rest; every part base64. `v` names the scheme so a later one can be told apart. */
export const sealedValueSchema = z.object({
  v: z.literal(1),
  iv: z.string().min(1),
  tag: z.string().min(1),
  data: z.string(),
});
export type SealedValue = z.infer<typeof sealedValueSchema>;

export interface TokenCipher {
  /** Encrypts `plaintext`, bound to `context` (e.g. the store key): it only opens with the same context. */
  seal(plaintext: string, context: string): SealedValue;
  /** Decrypts; throws when the key, the context or the bytes differ from sealing time. */
  open(sealed: SealedValue, context: string): string;
}

/**
 * The encryption key from its base64 text (FUNDBOT_ENCRYPTION_KEY), checked to be
 * exactly 32 bytes. The error says how to make one.
 */
export function encryptionKeyFromBase64(text: string): Uint8Array {
  const trimmed = text.trim();
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== keyBytes) {
    throw new Error(
      `FUNDBOT_ENCRYPTION_KEY must be ${keyBytes} random bytes in base64 (got ${key.length} bytes): create one with \`openssl rand -base64 32\` and keep it: without it the stored Slack installations cannot be read`,
    );
  }
  return new Uint8Array(key);
}

/**
 * AES-256-GCM for secrets at rest (Slack installation tokens, connected projects' API keys). The context is the
 * additional authenticated data: a sealed value copied to another team's key does
 * not open. Cost per value: 12 + 16 bytes plus base64 (about 4/3 of the plaintext).
 */
export function createTokenCipher(key: Uint8Array): TokenCipher {
  if (key.length !== keyBytes) throw new Error(`the token cipher needs a ${keyBytes}-byte key`);
  const secret = Buffer.from(key);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return {
        v: 1,
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      };
    },
    open(sealed, context) {
      const decipher = createDecipheriv('aes-256-gcm', secret, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

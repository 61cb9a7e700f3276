/** The cipher lives in src/lib (hosted project keys are sealed with it too); Slack's installations use it from here. */
export {
  createTokenCipher,
  encryptionKeyFromBase64,
  type SealedValue,
  sealedValueSchema,
  type TokenCipher,
} from '../../../lib/token-cipher.js';

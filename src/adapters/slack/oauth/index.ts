/** Slack for many workspaces: Bolt's OAuth install flow with installations encrypted in fundbot's store. */
export {
  createSlackOAuthAdapter,
  type SlackOAuthAdapter,
  type SlackOAuthAdapterOptions,
  slackOAuthPaths,
} from './create-slack-oauth-adapter.js';
export { createEncryptedInstallationStore, type EncryptedInstallationStore } from './installation-store.js';
export { createTokenCipher, encryptionKeyFromBase64, type TokenCipher } from './token-cipher.js';

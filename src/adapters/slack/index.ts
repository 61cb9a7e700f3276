export { buildSlackAppManifest, type SlackAppManifest, type SlackManifestOptions } from './app-manifest.js';
export {
  createSlackAdapter,
  type SlackAdapter,
  type SlackAdapterOptions,
  type SlackOAuthModeOptions,
} from './create-slack-adapter.js';
export {
  createSlackPoster,
  createSlackPostingClient,
  defaultPostTimeoutMs,
  noticeEventType,
  type SlackPosterOptions,
  unavailableChannelErrors,
} from './create-slack-poster.js';
export { encryptionKeyFromBase64, slackOAuthPaths } from './oauth/index.js';
export { renderBlocks, renderRichText, type SlackRendering, slackLimits } from './render-blocks.js';
export { botRetryPolicy, socketConnectionRetryPolicy } from './retry-policy.js';
export type { SlackRateGate } from './slack-rate-gate.js';
export { replayWindowMs, SlackReplayError } from './slack-replay-guard.js';
export { neutralizePlainText } from './slack-text.js';

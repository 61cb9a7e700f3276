export { buildSlackAppManifest, type SlackAppManifest, type SlackManifestOptions } from './app-manifest.js';
export {
  createSlackAdapter,
  type SlackAdapter,
  type SlackAdapterOptions,
  type SlackOAuthModeOptions,
} from './create-slack-adapter.js';
export { createSlackPoster, noticeEventType, unavailableChannelErrors } from './create-slack-poster.js';
export { escapeMrkdwn, neutralizePlainText } from './escape-mrkdwn.js';
export { encryptionKeyFromBase64, slackOAuthPaths } from './oauth/index.js';
export { renderBlocks, renderMrkdwnText, type SlackRendering, slackLimits } from './render-blocks.js';
export { botRetryPolicy, socketConnectionRetryPolicy } from './retry-policy.js';

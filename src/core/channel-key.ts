/** Channel keys live with the channel vocabulary in src/domain. */
export { channelKey, workspaceKey } from '../domain/channels.js';

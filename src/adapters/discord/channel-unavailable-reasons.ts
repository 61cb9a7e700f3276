import type { ChannelUnavailableError } from '../../delivery/index.js';

/**
 * Discord's codes for "this channel will not take our messages": retrying cannot
 * help. Unknown Channel means it is gone (or the bot left the server); Missing
 * Access / Missing Permissions mean the bot may not see or post there.
 */
export const unavailableReasons: ReadonlyMap<number | string, ChannelUnavailableError['reason']> = new Map([
  [10003, 'gone'],
  [50001, 'no-access'],
  [50013, 'no-access'],
]);

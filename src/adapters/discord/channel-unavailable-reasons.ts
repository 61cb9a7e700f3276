import type { ChannelAccessProblem } from '../../core/index.js';

/**
 * Discord's codes for "this channel will not take our messages": retrying cannot
 * help as things stand. Unknown Channel means it is gone (or the bot left the server);
 * Missing Access that the bot cannot see it; Missing Permissions that it may not post there.
 */
export const unavailableReasons: ReadonlyMap<number | string, ChannelAccessProblem> = new Map<
  number | string,
  ChannelAccessProblem
>([
  [10003, 'gone'],
  [50001, 'not-member'],
  [50013, 'no-permission'],
]);

import type { ChannelRef } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';

/**
 * Implemented by an adapter that can write to a member directly (Slack `conversations.open` then
 * `chat.postMessage`; Discord `POST /users/@me/channels` then a message in that channel). Used only for the reward
 * watch's one message (src/delivery/reward-watch-dms.ts). Mentions stay off and text stays escaped, as in a post.
 *
 * Errors: {@link DirectMessageRefusedError} when the platform says this member cannot be written to (Discord
 * 50007, Slack `cannot_dm_bot`, `user_not_found`, …): the watch is dropped. Anything else is tried again at the
 * next offer of the event.
 */
export interface DirectMessenger {
  readonly platform: ChannelRef['platform'];
  sendDirect(
    workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
    userId: string,
    message: NeutralMessage,
  ): Promise<void>;
}

/** The platform refused to open or write the direct message for good (not a passing failure). */
export class DirectMessageRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`the member cannot be sent a direct message: ${reason}`);
    this.name = 'DirectMessageRefusedError';
  }
}

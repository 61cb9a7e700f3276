import type { Writable } from 'node:stream';
import type { NeutralMessage } from '../../core/message.js';
import type { ChannelPoster, ChannelRef } from '../../core/ports.js';
import { renderConsoleMessage } from './render-console-message.js';

/** The one channel of the console. */
export const consoleChannel: ChannelRef = {
  platform: 'console',
  workspaceId: 'console',
  channelId: 'terminal',
};

/**
 * Posts notices to a terminal (or any stream): for the demo and for watching
 * what the bot would say without a chat platform.
 */
export function createConsolePoster(output: Writable): ChannelPoster {
  return {
    platform: 'console',
    async post(channel: ChannelRef, message: NeutralMessage, _idempotencyKey: string): Promise<void> {
      if (channel.platform !== 'console') {
        throw new Error(
          `the console poster cannot post to a ${channel.platform} channel: route it to its adapter`,
        );
      }
      await write(output, `${renderConsoleMessage(message)}\n\n`);
    },
  };
}

/** Writes and waits for the stream to accept it, so a slow terminal applies backpressure. */
export function write(output: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    output.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

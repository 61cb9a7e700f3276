import type { ChannelRef, NeutralMessage } from '../../core/index.js';
import type { ChannelPoster } from '../../delivery/index.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { renderConsoleMessage } from './render-console-message.js';
import { saveAttachment } from './save-attachment.js';

/** The one channel of the console. */
export const consoleChannel: ChannelRef = {
  platform: 'console',
  workspaceId: 'console',
  channelId: 'terminal',
};

/** Where the console's text goes: a plain stream, or a screen that keeps the typed line intact. */
export type ConsolePrint = (text: string) => Promise<void>;

export interface ConsolePosterOptions {
  /**
   * A folder for attached images (the digest chart): each is saved there and its path
   * printed, since a terminal cannot show a PNG. Without one, only the image's alt text is shown.
   */
  readonly attachmentDir?: string;
  /** Names saved images by the time of day. Default: the system clock. */
  readonly clock?: Clock;
}

/**
 * Posts notices to a terminal (or any stream): for the demo and for watching
 * what the bot would say without a chat platform.
 */
export function createConsolePoster(print: ConsolePrint, options: ConsolePosterOptions = {}): ChannelPoster {
  return {
    platform: 'console',
    async post(channel: ChannelRef, message: NeutralMessage, _idempotencyKey: string): Promise<void> {
      if (channel.platform !== 'console') {
        throw new Error(
          `the console poster cannot post to a ${channel.platform} channel: route it to its adapter`,
        );
      }
      const imagePath = await saveAttachment(
        message,
        options.attachmentDir,
        (options.clock ?? systemClock).now(),
      );
      await print(`${renderConsoleMessage(message, imagePath ? { imagePath } : {})}\n\n`);
    },
  };
}

/** A {@link ConsolePrint} over a plain stream that waits for it, so a slow terminal applies backpressure. */
export function streamPrint(output: NodeJS.WritableStream): ConsolePrint {
  return (text) =>
    new Promise((resolve, reject) => {
      output.write(text, (error) => (error ? reject(error) : resolve()));
    });
}

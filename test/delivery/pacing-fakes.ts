import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef } from '../../src/core/ports.js';
import type { ChannelPoster, PostReceipt } from '../../src/delivery/ports.js';

/** A poster fake that names its messages ("m1", "m2", ...) and records edits, like a chat platform. */
export class EditablePoster implements ChannelPoster {
  readonly posts: { channel: ChannelRef; message: NeutralMessage; id: string }[] = [];
  readonly edits: { channel: ChannelRef; messageId: string; message: NeutralMessage }[] = [];
  #next = 0;
  constructor(readonly platform: ChannelRef['platform']) {}

  async post(channel: ChannelRef, message: NeutralMessage): Promise<PostReceipt> {
    this.#next += 1;
    const id = `m${this.#next}`;
    this.posts.push({ channel, message, id });
    return { messageId: id };
  }

  async edit(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
    this.edits.push({ channel, messageId, message });
  }
}

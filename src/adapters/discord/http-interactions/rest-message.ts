import type { APIAttachment, APIEmbed, RawFile } from 'discord.js';
import type { NeutralMessage } from '../../../core/index.js';
import { renderEmbed } from '../render-embed.js';

/** Nothing fundbot sends may ping anyone: user text reaches embeds, and mentions there must stay inert. */
export const noMentions = { parse: [] } as const;

/** Discord's message flag for "only the invoking user sees it". */
export const ephemeralFlag = 64;

/** A message as Discord's REST routes take it: the JSON body and the files sent beside it as multipart. */
export interface RestMessage {
  readonly body: {
    readonly embeds: APIEmbed[];
    readonly components: unknown[];
    readonly allowed_mentions: typeof noMentions;
    readonly attachments?: Pick<APIAttachment, 'id' | 'filename' | 'description'>[];
    readonly flags?: number;
  };
  readonly files: RawFile[];
}

/**
 * Renders the neutral message with the same embed renderer the gateway adapter
 * uses and shapes it for REST: attachments (the digest chart) go as `files[n]`
 * parts with matching `attachments[n]` entries, which the embed refers to as
 * `attachment://name`. `flags` marks a private answer (interaction routes only:
 * channel posts are for everyone).
 */
export function restMessage(
  message: NeutralMessage,
  options: { readonly ephemeral?: boolean } = {},
): RestMessage {
  const rendering = renderEmbed(message);
  const files: RawFile[] = [];
  const attachments: Pick<APIAttachment, 'id' | 'filename' | 'description'>[] = [];
  rendering.files.forEach((file, index) => {
    const name = file.name ?? `file-${index}`;
    files.push({ key: `files[${index}]`, name, data: file.attachment as Buffer });
    attachments.push({
      id: String(index),
      filename: name,
      ...(file.description ? { description: file.description } : {}),
    });
  });
  return {
    body: {
      embeds: rendering.embeds,
      components: rendering.components,
      allowed_mentions: noMentions,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(options.ephemeral ? { flags: ephemeralFlag } : {}),
    },
    files,
  };
}

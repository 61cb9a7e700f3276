import type { APIAttachment, APIEmbed, RawFile } from 'discord.js';
import type { NeutralMessage } from '../../../core/index.js';
import { renderEmbed } from '../render-embed.js';

/** Nothing fundbot sends may ping anyone: user text reaches embeds, and mentions there must stay inert. */
export const noMentions = { parse: [] } as const;

/** Discord's message flag for "only the invoking user sees it". */
export const ephemeralFlag = 64;

/** A message as Discord's REST routes take it: the JSON body and the files sent beside it as multipart. */
/**
 * The one mention fundbot may send: the role an admin chose with /ping, as the message content `<@&id>`, with
 * `allowed_mentions` naming exactly that role (no parsing of anything else). A snowflake only.
 */
export function roleMention(ping: string | undefined): { content: string; roles: string[] } | undefined {
  return ping !== undefined && /^\d{17,20}$/.test(ping)
    ? { content: `<@&${ping}>`, roles: [ping] }
    : undefined;
}

export interface RestMessage {
  readonly body: {
    readonly content?: string;
    readonly embeds: APIEmbed[];
    readonly components: unknown[];
    readonly allowed_mentions: { readonly parse: readonly []; readonly roles?: readonly string[] };
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
  const mention = options.ephemeral ? undefined : roleMention(message.ping);
  return {
    body: {
      ...(mention ? { content: mention.content } : {}),
      embeds: rendering.embeds,
      components: rendering.components,
      allowed_mentions: mention ? { parse: [], roles: mention.roles } : noMentions,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(options.ephemeral ? { flags: ephemeralFlag } : {}),
    },
    files,
  };
}

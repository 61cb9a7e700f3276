import {
  type APIActionRowComponent,
  type APIButtonComponentWithURL,
  type APIEmbed,
  type APIEmbedField,
  AttachmentBuilder,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { MessageField, NeutralMessage } from '../../core/index.js';
import { progressBar } from '../../core/index.js';
import { safeHttpUrl } from '../../domain/text.js';
import { clip, escapeDiscordMarkdown, neutralizeDiscordText } from './escape-discord.js';

/** Discord's embed and component limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const discordLimits = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  embedTotal: 6000,
  buttonLabel: 80,
  buttonUrl: 512,
  buttonsPerRow: 5,
  rows: 5,
  attachmentDescription: 1024,
} as const;

/** What a NeutralMessage becomes on Discord: spread into `send`, `reply` or `editReply`. */
export interface DiscordRendering {
  readonly embeds: APIEmbed[];
  readonly files: AttachmentBuilder[];
  readonly components: APIActionRowComponent<APIButtonComponentWithURL>[];
}

const toneColors: Readonly<Record<NonNullable<NeutralMessage['tone']>, number>> = {
  neutral: 0x5865f2,
  success: 0x57f287,
  info: 0x3498db,
  warning: 0xfee75c,
  error: 0xed4245,
};

/** Discord rejects empty field names and values; a zero-width space is its usual placeholder. */
const blank = '\u200b';

/**
 * Renders the neutral model as one embed, link buttons and attachments.
 *
 * All text is untrusted. Where Discord renders markdown (title, description,
 * field names and values) it is escaped; where it does not (author name, footer,
 * button labels) escaping would show stray backslashes, so only mentions and
 * links are neutralised there. The only clickable URLs are the title URL, the
 * image and the link buttons, all from trusted data and still required to be http(s).
 */
export function renderEmbed(message: NeutralMessage): DiscordRendering {
  const embed: APIEmbed = { color: toneColors[message.tone ?? 'neutral'] };
  const files: AttachmentBuilder[] = [];

  if (message.title) {
    const title = clip(escapeDiscordMarkdown(message.title), discordLimits.title - 4);
    // A correction: the escaped title struck through.
    embed.title = message.struck ? `~~${title}~~` : title;
    const url = safeHttpUrl(message.titleUrl);
    if (url) embed.url = url;
  }
  if (message.badge) {
    embed.author = { name: clip(neutralizeDiscordText(message.badge), discordLimits.authorName) };
  }

  // The bar once, with the core's label: the core formats every percent (one rule).
  const progressLine = message.progress
    ? `${progressBar(message.progress.percent)} ${message.progress.label}`
    : undefined;
  const text = message.text ? escapeDiscordMarkdown(message.text) : '';
  const description = [text, progressLine].filter(Boolean).join('\n\n');
  if (description) embed.description = clipKeepingTail(text, progressLine, discordLimits.description);

  const fields = (message.fields ?? []).slice(0, discordLimits.fields).map(
    (field): APIEmbedField => ({
      name: clip(escapeDiscordMarkdown(field.name), discordLimits.fieldName) || blank,
      value: clip(fieldValue(field), discordLimits.fieldValue) || blank,
      inline: field.inline ?? false,
    }),
  );
  if (fields.length > 0) embed.fields = fields;

  if (message.footer) {
    embed.footer = { text: clip(neutralizeDiscordText(message.footer), discordLimits.footer) };
  }

  if (message.image?.kind === 'url') {
    const url = safeHttpUrl(message.image.url);
    if (url) embed.image = { url };
  } else if (message.image?.kind === 'attachment') {
    const name = attachmentName(message.image.filename);
    files.push(
      new AttachmentBuilder(Buffer.from(message.image.data), {
        name,
        description: clip(neutralizeDiscordText(message.image.alt), discordLimits.attachmentDescription),
      }),
    );
    embed.image = { url: `attachment://${name}` };
  }

  fitTotal(embed, text, progressLine);
  if (!embed.title && !embed.description && !embed.fields && !embed.author && !embed.image) {
    embed.description = blank;
  }
  return { embeds: [embed], files, components: linkButtons(message.links ?? []) };
}

/**
 * A field's value as Discord markdown: the escaped value, then its items as a markdown
 * list ("- entry"); each entry is escaped, so it cannot start a list or heading itself.
 */
function fieldValue(field: MessageField): string {
  const lines = field.value ? [escapeDiscordMarkdown(field.value)] : [];
  for (const item of field.items ?? []) lines.push(`- ${escapeDiscordMarkdown(item)}`);
  return mentionChannels(lines.join('\n'), field.channels ?? []);
}

/**
 * The channels the core named as `#<id>` (a field's `channels`), as Discord channel mentions `<#id>`: after
 * escaping, so only these ids become mentions (a channel mention pings nobody). Snowflakes only.
 */
function mentionChannels(escaped: string, channels: readonly string[]): string {
  let text = escaped;
  for (const id of channels) {
    if (!/^\d{1,25}$/.test(id)) continue;
    text = text.replace(new RegExp(`\\\\?#${id}(?!\\d)`, 'g'), `<#${id}>`);
  }
  return text;
}

/** The progress bar is ours and short: when the text is long, cut the text, not the bar. */
function clipKeepingTail(text: string, tail: string | undefined, max: number): string {
  if (!tail) return clip(text, max);
  if (!text) return clip(tail, max);
  const room = max - tail.length - 2;
  return room > 0 ? `${clip(text, room)}\n\n${tail}` : clip(tail, max);
}

function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

/** Keeps the whole embed within 6000 characters: the description shrinks first, then trailing fields go. */
function fitTotal(embed: APIEmbed, text: string, progressLine: string | undefined): void {
  let excess = embedLength(embed) - discordLimits.embedTotal;
  if (excess <= 0) return;
  if (embed.description) {
    const target = Math.max(0, embed.description.length - excess);
    embed.description = clipKeepingTail(text, progressLine, Math.max(target, 1));
    excess = embedLength(embed) - discordLimits.embedTotal;
  }
  while (excess > 0 && embed.fields && embed.fields.length > 0) {
    embed.fields.pop();
    excess = embedLength(embed) - discordLimits.embedTotal;
  }
  if (embed.fields?.length === 0) delete embed.fields;
  if (excess > 0 && embed.footer) {
    embed.footer.text = clip(embed.footer.text, Math.max(1, embed.footer.text.length - excess));
  }
}

function linkButtons(
  links: NeutralMessage['links'] & {},
): APIActionRowComponent<APIButtonComponentWithURL>[] {
  const buttons: APIButtonComponentWithURL[] = [];
  for (const link of links) {
    const url = safeHttpUrl(link.url);
    if (!url || url.length > discordLimits.buttonUrl) continue;
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: clip(neutralizeDiscordText(link.label), discordLimits.buttonLabel) || url.slice(0, 80),
      url,
    });
  }
  const rows: APIActionRowComponent<APIButtonComponentWithURL>[] = [];
  for (let i = 0; i < buttons.length && rows.length < discordLimits.rows; i += discordLimits.buttonsPerRow) {
    rows.push({
      type: ComponentType.ActionRow,
      components: buttons.slice(i, i + discordLimits.buttonsPerRow),
    });
  }
  return rows;
}

/** `attachment://` names must be simple: keep letters, digits, dot, dash, underscore. */
function attachmentName(filename: string): string {
  const cleaned = filename
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(-100);
  return cleaned.length > 0 ? cleaned : 'image.png';
}

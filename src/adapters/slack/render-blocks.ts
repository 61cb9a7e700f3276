import type { types } from '@slack/bolt';
import type { NeutralMessage } from '../../core/index.js';
import { progressBar } from '../../core/index.js';
import { safeHttpUrl } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { fieldBlocks, richBlock, richLink, richSection, richText } from './rich-text.js';
import { clip, escapeSlackEntities, neutralizePlainText } from './slack-text.js';

/** Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks). */
export const slackLimits = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fieldText: 2000,
  contextElements: 10,
  contextText: 3000,
  imageUrl: 3000,
  imageAltText: 2000,
  /** A file upload's alt text. */
  fileAltText: 1000,
  /** The notification fallback: Slack allows far more, but it is a one-line summary. */
  fallbackText: 300,
} as const;

/** What a NeutralMessage becomes on Slack: spread into chat.postMessage or respond(). */
export interface SlackRendering {
  readonly blocks: types.KnownBlock[];
  /** Notification and accessibility fallback (escaped for Slack's message text). */
  readonly text: string;
}

const toneMarks: Readonly<Record<NonNullable<NeutralMessage['tone']>, string>> = {
  neutral: '',
  success: '',
  info: '',
  warning: '⚠️ ',
  error: '⛔ ',
};

/** Text objects need at least one character; an empty string becomes a quiet placeholder. */
function plain(text: string, max: number): types.PlainTextElement {
  return { type: 'plain_text', text: clip(neutralizePlainText(text), max) || '…', emoji: true };
}

/** The progress bar once, with the core's label ("▰▰▰▰▰▰▱▱▱▱ 64%"). */
function progressLine(progress: NonNullable<NeutralMessage['progress']>): string {
  return `${progressBar(progress.percent)} ${progress.label}`;
}

/**
 * The title as rich text: struck through (a correction) or linked (a header cannot
 * do either), then the badge. The title stays literal either way.
 */
function titleElements(message: NeutralMessage, mark: string): types.RichTextElement[] {
  const title = clip(message.title ?? '', limits.messageTitle);
  const elements: types.RichTextElement[] = [];
  if (mark) elements.push(richText(mark));
  const titleUrl = safeHttpUrl(message.titleUrl);
  elements.push(
    message.struck
      ? richText(title, { strike: true })
      : titleUrl
        ? richLink(titleUrl, title, { bold: true })
        : richText(title, { bold: true }),
  );
  if (message.badge) elements.push(richText(` · ${message.badge}`));
  return elements;
}

/**
 * Renders the neutral model as Block Kit. No user text ever goes into `mrkdwn` (it has
 * no escape, see slack-text.ts): `plain_text` for the header, text, progress, footer and
 * alt text; `rich_text` for struck or linked titles, fields, lists and links. The only
 * links are the title URL, the image and `links[]`, all trusted and required to be http(s).
 */
export function renderBlocks(message: NeutralMessage): SlackRendering {
  const head: types.KnownBlock[] = [];
  const tail: types.KnownBlock[] = [];
  const mark = toneMarks[message.tone ?? 'neutral'];
  const group = groupMention(message.ping);
  // The user group an admin chose with /ping: the one mention fundbot writes, above the notice.
  if (group) head.push({ type: 'section', text: { type: 'mrkdwn', text: group } });

  if (message.title) {
    if (message.struck || safeHttpUrl(message.titleUrl)) {
      head.push(richBlock([richSection(titleElements(message, mark))]));
    } else {
      const badge = message.badge ? ` · ${message.badge}` : '';
      const room = slackLimits.headerText - badge.length - mark.length;
      head.push({
        type: 'header',
        text: plain(`${mark}${clip(message.title, Math.max(20, room))}${badge}`, slackLimits.headerText),
      });
    }
  } else if (message.badge) {
    head.push({ type: 'context', elements: [plain(`${mark}${message.badge}`, slackLimits.contextText)] });
  }

  if (message.text) head.push({ type: 'section', text: plain(message.text, slackLimits.sectionText) });
  if (message.progress) {
    head.push({ type: 'section', text: plain(progressLine(message.progress), slackLimits.sectionText) });
  }

  if (message.image?.kind === 'url') {
    const url = safeHttpUrl(message.image.url);
    if (url && url.length <= slackLimits.imageUrl) {
      tail.push({
        type: 'image',
        image_url: url,
        alt_text: clip(neutralizePlainText(message.image.alt), slackLimits.imageAltText) || 'image',
      });
    }
  }
  const links = linkElements(message);
  if (links.length > 0) tail.push(richBlock([richSection(links)]));
  if (message.footer) {
    tail.push({ type: 'context', elements: [plain(message.footer, slackLimits.contextText)] });
  }

  const room = slackLimits.blocks - head.length - tail.length;
  const fields = fieldBlocks(message.fields ?? [], slackLimits.fieldText);
  const blocks = [...head, ...fields.slice(0, Math.max(0, room)), ...tail];
  if (blocks.length === 0) blocks.push({ type: 'section', text: plain('…', slackLimits.sectionText) });
  const fallback = fallbackText(message);
  return { blocks, text: group ? `${group} ${fallback}` : fallback };
}

/**
 * The mention of a Slack user group, `<!subteam^ID>`, built from an id the channel's admin chose (never user
 * text): an id of Slack's form only (`S` and capitals or digits), else none.
 */
export function groupMention(ping: string | undefined): string | undefined {
  return ping !== undefined && /^S[A-Z0-9]{5,19}$/.test(ping) ? `<!subteam^${ping}>` : undefined;
}

/** The trusted http(s) links, "  ·  " between them. */
function linkElements(message: NeutralMessage): types.RichTextElement[] {
  const elements: types.RichTextElement[] = [];
  for (const link of message.links ?? []) {
    if (!safeHttpUrl(link.url)) continue;
    if (elements.length > 0) elements.push(richText('  ·  '));
    elements.push(richLink(link.url, clip(link.label, limits.linkLabel)));
  }
  return elements;
}

/**
 * One line for notifications and screen readers: the title and the start of the text.
 *
 * It carries the real characters ("kiosk_lover", "*solar*"), with only `&`, `<`, `>`
 * escaped as Slack requires: that alone makes every mention, broadcast and labelled
 * link inert, since each needs a raw `<`. (`@here` typed as text is no broadcast:
 * fundbot never sets `link_names` or `parse: full`.)
 */
export function fallbackText(message: NeutralMessage): string {
  const summary = [message.title, message.text ?? message.fields?.[0]?.value ?? message.footer]
    .filter((part): part is string => Boolean(part))
    .join(' — ')
    .replace(/\s+/g, ' ')
    .trim();
  return (
    clip(escapeSlackEntities(clip(summary, slackLimits.fallbackText)), slackLimits.fallbackText * 2) || '…'
  );
}

/**
 * The whole message as ONE rich text block: for a file upload (the chart), whose
 * message Slack builds from rich text. Same literal text and trusted links as the blocks.
 */
export function renderRichText(message: NeutralMessage): types.RichTextBlock {
  const mark = toneMarks[message.tone ?? 'neutral'];
  const out: types.RichTextBlockElement[] = [];
  // Lines of one paragraph are joined with line breaks; a list ends the paragraph.
  let paragraph: types.RichTextElement[] = [];
  const add = (elements: readonly types.RichTextElement[]) => {
    if (paragraph.length > 0) paragraph.push(richText('\n'));
    paragraph.push(...elements);
  };
  const flush = () => {
    if (paragraph.length > 0) out.push(richSection(paragraph));
    paragraph = [];
  };
  if (message.title) add(titleElements(message, mark));
  else if (message.badge) add([richText(`${mark}${message.badge}`)]);
  if (message.text) add([richText(message.text)]);
  if (message.progress) add([richText(progressLine(message.progress))]);
  for (const block of fieldBlocks(message.fields ?? [], slackLimits.fieldText)) {
    for (const element of block.elements) {
      if (element.type === 'rich_text_section') add(element.elements);
      else {
        flush();
        out.push(element);
      }
    }
  }
  const links = linkElements(message);
  if (links.length > 0) add(links);
  if (message.footer) add([richText(message.footer)]);
  flush();
  return richBlock(out.length > 0 ? out : [richSection([richText('…')])]);
}

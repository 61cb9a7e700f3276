import type { types } from '@slack/bolt';
import type { MessageField, NeutralMessage } from '../../core/index.js';
import { progressBar } from '../../core/index.js';
import { safeHttpUrl } from '../../domain/text.js';
import { clip, escapeMrkdwn, escapeSlackEntities, mrkdwnLink, neutralizePlainText } from './escape-mrkdwn.js';

/** Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks). */
export const slackLimits = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fieldsPerSection: 10,
  fieldText: 2000,
  contextElements: 10,
  contextText: 3000,
  imageUrl: 3000,
  imageAltText: 2000,
  /** The notification fallback: Slack allows far more, but it is a one-line summary. */
  fallbackText: 300,
  /** A file's initial comment: a whole message in mrkdwn. */
  fileComment: 4000,
} as const;

/** What a NeutralMessage becomes on Slack: spread into chat.postMessage or respond(). */
export interface SlackRendering {
  readonly blocks: types.KnownBlock[];
  /** Notification and accessibility fallback (mrkdwn, escaped). */
  readonly text: string;
}

const toneMarks: Readonly<Record<NonNullable<NeutralMessage['tone']>, string>> = {
  neutral: '',
  success: '',
  info: '',
  warning: '⚠️ ',
  error: '⛔ ',
};

type PlainText = types.PlainTextElement;
type Mrkdwn = types.MrkdwnElement;

/** Text objects need at least one character; an empty string becomes a quiet placeholder. */
function plain(text: string, max: number): PlainText {
  return { type: 'plain_text', text: clip(neutralizePlainText(text), max) || '…', emoji: true };
}

/** Already escaped mrkdwn; `verbatim` keeps Slack from auto-linking or auto-mentioning anything in it. */
function mrkdwn(escaped: string, max: number): Mrkdwn {
  return { type: 'mrkdwn', text: clip(escaped, max) || '…', verbatim: true };
}

/**
 * Renders the neutral model as Block Kit.
 *
 * `plain_text` wherever the layout allows (header, text, progress, footer, image
 * alt text), since Slack never parses it for mentions or markup; `mrkdwn` only where
 * formatting is ours (bold field names, links), with every user piece escaped by
 * {@link escapeMrkdwn}. The only links are the title URL, the image and
 * `links[]`, all trusted and still required to be http(s).
 */
export function renderBlocks(message: NeutralMessage): SlackRendering {
  const head: types.KnownBlock[] = [];
  const tail: types.KnownBlock[] = [];
  const mark = toneMarks[message.tone ?? 'neutral'];

  if (message.title) {
    const badge = message.badge ? ` · ${message.badge}` : '';
    const titleUrl = safeHttpUrl(message.titleUrl);
    if (message.struck) {
      // A header cannot strike through: a struck, escaped title in a section (a correction).
      const title = `~${escapeMrkdwn(clip(message.title, 250))}~${badge ? escapeMrkdwn(badge) : ''}`;
      head.push({ type: 'section', text: mrkdwn(`${mark}${title}`, slackLimits.sectionText) });
    } else if (titleUrl) {
      // A header cannot link: a bold linked title in a section instead.
      const title = `*${mrkdwnLink(titleUrl, clip(message.title, 250))}*${badge ? escapeMrkdwn(badge) : ''}`;
      head.push({ type: 'section', text: mrkdwn(`${mark}${title}`, slackLimits.sectionText) });
    } else {
      const room = slackLimits.headerText - badge.length - mark.length;
      head.push({
        type: 'header',
        text: plain(`${mark}${clip(message.title, Math.max(20, room))}${badge}`, slackLimits.headerText),
      });
    }
  } else if (message.badge) {
    head.push({ type: 'context', elements: [plain(`${mark}${message.badge}`, slackLimits.contextText)] });
  }

  if (message.text) {
    head.push({ type: 'section', text: plain(message.text, slackLimits.sectionText) });
  }
  if (message.progress) {
    head.push({
      type: 'section',
      text: plain(progressLine(message.progress.percent), slackLimits.sectionText),
    });
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
  const links = (message.links ?? [])
    .map((link) => (safeHttpUrl(link.url) ? mrkdwnLink(link.url, clip(link.label, 75)) : undefined))
    .filter((link): link is string => link !== undefined);
  if (links.length > 0) {
    tail.push({
      type: 'section',
      text: mrkdwn(joinWithin(links, '  ·  ', slackLimits.sectionText), Infinity),
    });
  }
  if (message.footer) {
    tail.push({ type: 'context', elements: [plain(message.footer, slackLimits.contextText)] });
  }

  const room = slackLimits.blocks - head.length - tail.length;
  const blocks = [...head, ...fieldSections(message.fields ?? []).slice(0, Math.max(0, room)), ...tail];
  if (blocks.length === 0) blocks.push({ type: 'section', text: plain('…', slackLimits.sectionText) });
  return { blocks, text: fallbackText(message) };
}

function progressLine(percent: number): string {
  return `${progressBar(percent)} ${Math.floor(percent)}%`;
}

/**
 * Inline fields share two-column sections (at most 10 fields each); a field that
 * is not inline gets a full-width section of its own. Order is kept.
 */
function fieldSections(fields: readonly MessageField[]): types.SectionBlock[] {
  const sections: types.SectionBlock[] = [];
  let current: Mrkdwn[] = [];
  const flush = () => {
    if (current.length > 0) sections.push({ type: 'section', fields: current });
    current = [];
  };
  for (const field of fields) {
    const text = `*${escapeMrkdwn(clip(field.name, 200))}*\n${escapeMrkdwn(field.value)}`;
    if (field.inline) {
      current.push(mrkdwn(text, slackLimits.fieldText));
      if (current.length === slackLimits.fieldsPerSection) flush();
    } else {
      flush();
      sections.push({ type: 'section', text: mrkdwn(text, slackLimits.sectionText) });
    }
  }
  flush();
  return sections;
}

/** Whole links only: a link cut in half would be broken markup. */
function joinWithin(parts: readonly string[], separator: string, max: number): string {
  let out = '';
  for (const part of parts) {
    const next = out ? `${out}${separator}${part}` : part;
    if (next.length > max) break;
    out = next;
  }
  return out;
}

/**
 * One line for notifications and screen readers: the title and the start of the text.
 *
 * It carries the real characters ("kiosk_lover", "*solar*"), with only `&`, `<`, `>`
 * escaped as Slack requires: that alone makes every mention, broadcast and labelled
 * link inert, since each needs a raw `<`. No look-alikes: with blocks present Slack
 * shows this text only in notifications and to screen readers, where a look-alike
 * would be read or shown instead of the name. (`@here` typed as text is no broadcast:
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
 * The whole message as one mrkdwn text: for a file's `initial_comment`, which
 * ignores blocks. Same escaping rules as the blocks.
 */
export function renderMrkdwnText(message: NeutralMessage): string {
  const lines: string[] = [];
  if (message.title) {
    const title = safeHttpUrl(message.titleUrl)
      ? mrkdwnLink(message.titleUrl, message.title)
      : escapeMrkdwn(message.title);
    lines.push(`*${title}*${message.badge ? ` · ${escapeMrkdwn(message.badge)}` : ''}`);
  } else if (message.badge) {
    lines.push(escapeMrkdwn(message.badge));
  }
  if (message.text) lines.push(escapeMrkdwn(message.text));
  if (message.progress) lines.push(progressLine(message.progress.percent));
  for (const field of message.fields ?? []) {
    lines.push(`*${escapeMrkdwn(field.name)}*: ${escapeMrkdwn(field.value)}`);
  }
  const links = (message.links ?? []).filter((link) => safeHttpUrl(link.url));
  if (links.length > 0) lines.push(links.map((link) => mrkdwnLink(link.url, link.label)).join('  ·  '));
  if (message.footer) lines.push(escapeMrkdwn(message.footer));
  // Cut whole lines so a link is never split; the last resort clip only hits one very long line.
  return clip(joinWithin(lines, '\n', slackLimits.fileComment) || (lines[0] ?? ''), slackLimits.fileComment);
}

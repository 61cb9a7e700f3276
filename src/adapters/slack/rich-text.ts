import type { types } from '@slack/bolt';
import type { MessageField } from '../../core/index.js';
import { safeHttpUrl } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { clip, neutralizePlainText } from './slack-text.js';

/**
 * Builders for Slack `rich_text`: the block kind whose text elements are literal, so
 * user text keeps every character (`kiosk_lover`, `*solar*`) while bold, strike-through,
 * links and bullets are structure. Every text goes through {@link neutralizePlainText}
 * (no auto-link, no broadcast word) and is bounded.
 */

type Style = { readonly bold?: boolean; readonly strike?: boolean };

/** Slack's bound for a text object (3,000); used for each rich text element too. */
const elementMax = 3000;

/** A literal text element. */
export function richText(text: string, style: Style = {}, max: number = elementMax): types.RichTextText {
  const element: types.RichTextText = { type: 'text', text: clip(neutralizePlainText(text), max) };
  if (style.bold || style.strike) {
    element.style = { ...(style.bold ? { bold: true } : {}), ...(style.strike ? { strike: true } : {}) };
  }
  return element;
}

/** A link to a trusted http(s) URL with a literal label; only the label when the URL is anything else. */
export function richLink(
  url: string | undefined,
  label: string,
  style: Style = {},
  max: number = elementMax,
): types.RichTextElement {
  const safe = safeHttpUrl(url);
  if (!safe) return richText(label, style, max);
  const link: types.RichTextLink = { type: 'link', url: safe, text: clip(neutralizePlainText(label), max) };
  if (style.bold) link.style = { bold: true };
  return link;
}

export function richSection(elements: types.RichTextElement[]): types.RichTextSection {
  return { type: 'rich_text_section', elements };
}

/** A bulleted list: Slack draws the bullets. */
export function richList(items: readonly string[], max: number): types.RichTextList {
  return {
    type: 'rich_text_list',
    style: 'bullet',
    elements: items.map((item) => richSection([richText(item, {}, max)])),
  };
}

export function richBlock(elements: types.RichTextBlockElement[]): types.RichTextBlock {
  return { type: 'rich_text', elements };
}

/**
 * Fields as rich text, order kept. A run of inline fields shares one block, one
 * "**Name**: value" line each; a full-width field gets its own block: the bold name,
 * its value on the lines below, its `items` as a bulleted list.
 */
export function fieldBlocks(fields: readonly MessageField[], valueMax: number): types.RichTextBlock[] {
  const blocks: types.RichTextBlock[] = [];
  let inline: types.RichTextElement[] = [];
  const flush = () => {
    if (inline.length > 0) blocks.push(richBlock([richSection(inline)]));
    inline = [];
  };
  for (const field of fields) {
    const name = richText(field.name, { bold: true }, limits.messageTitle);
    if (field.inline && !field.items?.length) {
      if (inline.length > 0) inline.push(richText('\n'));
      inline.push(name);
      if (field.value) inline.push(richText(`: ${field.value}`, {}, valueMax));
      continue;
    }
    flush();
    const head = field.value ? [name, richText(`\n${field.value}`, {}, valueMax)] : [name];
    const elements: types.RichTextBlockElement[] = [richSection(head)];
    if (field.items?.length) elements.push(richList(field.items, valueMax));
    blocks.push(richBlock(elements));
  }
  flush();
  return blocks;
}

import { describe, expect, it } from 'vitest';
import { renderBlocks, renderRichText, slackLimits } from '../../src/adapters/slack/index.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { hostileTexts } from '../../src/simulator/hostile-texts.js';
import { allHostileTexts } from '../support/hostile-text.js';

/** The brief's fixtures plus the simulator's shared list. */
const hostile: readonly string[] = [
  '<!channel>',
  '<!here>',
  '<@U123>',
  '<https://evil.example|click>',
  '*bold*',
  '&lt;!channel&gt;',
  '&amp;lt;@U123&amp;gt;',
  'https://evil.example',
  'visit www.evil.example or evil.example/phish now',
  '@here @channel @everyone',
  '_italic_ ~strike~ `code` ```block```',
  '> fake quote\n>>> fake long quote',
  ...hostileTexts,
  ...allHostileTexts,
];

const trustedUrl = 'https://platform.example/solar-kiosk';

/** Every user-text field of the model filled with `text`; links and image URLs stay trusted. */
function hostileMessage(text: string, overrides: Partial<NeutralMessage> = {}): NeutralMessage {
  return {
    title: text,
    text,
    badge: text,
    footer: text,
    fields: [
      { name: text, value: text, inline: true },
      { name: text, value: text, items: [text, text] },
    ],
    progress: { current: 50, goal: 100, percent: 50, label: '50%' },
    image: { kind: 'url', url: 'https://cdn.platform.example/image.png', alt: text },
    links: [{ label: text, url: trustedUrl }],
    ...overrides,
  };
}

interface Piece {
  readonly kind: string;
  readonly text: string;
}

/** Every text Slack will display from a block tree, with the kind of object that holds it. */
function pieces(node: unknown, out: Piece[] = []): Piece[] {
  if (Array.isArray(node)) {
    for (const child of node) pieces(child, out);
  } else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record.text === 'string' && typeof record.type === 'string') {
      out.push({ kind: record.type, text: record.text });
    }
    if (typeof record.alt_text === 'string') out.push({ kind: 'alt', text: record.alt_text });
    for (const [key, value] of Object.entries(record))
      if (key !== 'text' || typeof value !== 'string') pieces(value, out);
  }
  return out;
}

/** Every `url` in a block tree (link elements and images). */
function urls(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) urls(child, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'url' || key === 'image_url') && typeof value === 'string') out.push(value);
      else urls(value, out);
    }
  }
  return out;
}

function assertNoAutolinkOrBroadcast(text: string, context: string): void {
  const withoutTrusted = text.replaceAll(trustedUrl, '');
  expect(withoutTrusted, context).not.toMatch(/[a-z]:\/\//i);
  expect(withoutTrusted, context).not.toMatch(/evil\.example|www\./i);
  expect(withoutTrusted, context).not.toMatch(/@(here|channel|everyone)/i);
}

/** Look-alike characters an earlier renderer put in place of `* _ ~ \``. */
const lookAlikes = /[\u2217\u02cd\u223c\u02cb]/;

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The notification fallback: no raw `<` or `>` (every Slack control sequence needs
 * one), and decoding the three entities gives back exactly what the user wrote, on
 * one line: no look-alikes, no inserted characters.
 */
function assertInertFallback(fallback: string, userText: string): void {
  expect(fallback, 'fallback').not.toMatch(/[<>]/);
  expect(fallback, 'fallback').not.toMatch(lookAlikes);
  expect(fallback.replace(/&(amp|lt|gt);/g, ''), 'fallback: only the three entities').not.toMatch(/&/);
  const oneLine = userText.replace(/\s+/g, ' ').trim();
  if (userText.length > 100) {
    expect(oneLine.startsWith(decodeEntities(fallback).replace(/…$/, ''))).toBe(true);
    return;
  }
  expect(decodeEntities(fallback)).toBe(`${oneLine} — ${oneLine}`);
}

/** What a displayed text is once the zero-width spaces that break auto-links are taken out. */
const visible = (text: string) => text.replaceAll('\u200b', '');

describe('renderBlocks: user text can never mention, link or format, and keeps its characters', () => {
  it.each(hostile.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'every field of the model with %s',
    (_label, text) => {
      for (const titleUrl of [undefined, trustedUrl]) {
        const message = hostileMessage(text, titleUrl ? { titleUrl } : {});
        const rendering = renderBlocks(message);
        const shown = pieces(rendering.blocks);
        expect(shown.length).toBeGreaterThan(5);
        // No user text in mrkdwn: it has no escape (slack-text.ts).
        expect(shown.filter((p) => p.kind === 'mrkdwn')).toEqual([]);
        for (const piece of shown) {
          assertNoAutolinkOrBroadcast(piece.text, `${piece.kind} ${piece.text.slice(0, 80)}`);
          expect(piece.text).not.toMatch(lookAlikes);
        }
        for (const url of urls(rendering.blocks)) {
          expect([trustedUrl, 'https://cdn.platform.example/image.png']).toContain(url);
        }
        assertInertFallback(rendering.text, text);
        const file = renderRichText(message);
        expect(pieces(file).filter((p) => p.kind === 'mrkdwn')).toEqual([]);
        for (const piece of pieces(file)) assertNoAutolinkOrBroadcast(piece.text, `file ${piece.kind}`);
        for (const url of urls(file)) expect(url).toBe(trustedUrl);
      }
    },
  );

  it('shows names with _ and * exactly as written, in every kind of text object (issue 23)', () => {
    const name = 'kiosk_lover *solar* ~x~ `y` _z_';
    const message: NeutralMessage = {
      title: `New supporter: ${name}`,
      titleUrl: trustedUrl,
      text: name,
      fields: [
        { name: 'Wall', value: `latest by ${name}`, inline: true },
        { name: 'Blog', value: '', items: [name] },
      ],
      links: [{ label: name, url: trustedUrl }],
      footer: name,
    };
    const texts = [...pieces(renderBlocks(message).blocks), ...pieces(renderRichText(message))].map((p) =>
      visible(p.text),
    );
    expect(texts).toContain(`New supporter: ${name}`);
    expect(texts).toContain(name);
    expect(texts).toContain(`: latest by ${name}`);
    expect(texts.join('\n')).not.toMatch(lookAlikes);
    // Without a link, the title is a header: plain text, never parsed.
    const header = renderBlocks({ title: `New supporter: ${name}` }).blocks[0];
    expect(header).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: `New supporter: ${name}`, emoji: true },
    });
  });

  it('gives the notification fallback the real characters, escaped, never look-alikes', () => {
    expect(renderBlocks({ title: 'New supporter: kiosk_lover', text: '*solar* ~x~ `y`' }).text).toBe(
      'New supporter: kiosk_lover — *solar* ~x~ `y`',
    );
    expect(
      renderBlocks({ text: 'Tom & Jerry <3 <!channel> <@U123> <https://evil.example|click>' }).text,
    ).toBe('Tom &amp; Jerry &lt;3 &lt;!channel&gt; &lt;@U123&gt; &lt;https://evil.example|click&gt;');
  });

  it('keeps plain text readable: plain_text objects are not entity-escaped', () => {
    const { blocks } = renderBlocks({ text: 'Tom & Jerry <3' });
    expect(blocks).toEqual([
      { type: 'section', text: { type: 'plain_text', text: 'Tom & Jerry <3', emoji: true } },
    ]);
  });
});

describe('renderBlocks: trusted links only', () => {
  it('links the title and the links from http(s) URLs as rich text links with literal labels', () => {
    const { blocks } = renderBlocks({
      title: 'Solar <kiosk>',
      titleUrl: 'https://platform.example/p?a=1&b=2|x',
      links: [
        { label: 'Open *now*', url: trustedUrl },
        { label: 'evil', url: 'javascript:alert(1)' },
        { label: 'data', url: 'data:text/html,hi' },
      ],
    });
    expect(blocks).toEqual([
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              {
                type: 'link',
                url: 'https://platform.example/p?a=1&b=2|x',
                text: 'Solar <kiosk>',
                style: { bold: true },
              },
            ],
          },
        ],
      },
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_section', elements: [{ type: 'link', url: trustedUrl, text: 'Open *now*' }] },
        ],
      },
    ]);
  });

  it('strikes a corrected title through as structure, not characters', () => {
    const { blocks } = renderBlocks({ title: '🎉 New supporter: ~Ada~', struck: true });
    expect(blocks[0]).toEqual({
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [{ type: 'text', text: '🎉 New supporter: ~Ada~', style: { strike: true } }],
        },
      ],
    });
  });

  it('drops an image whose URL is not http(s)', () => {
    const { blocks } = renderBlocks({
      text: 'x',
      image: { kind: 'url', url: 'javascript:alert(1)', alt: 'a' },
    });
    expect(blocks.some((b) => b.type === 'image')).toBe(false);
  });

  it('renders a URL image as an image block with plain alt text', () => {
    const { blocks } = renderBlocks({
      image: { kind: 'url', url: 'https://cdn.example/c.png', alt: 'Chart' },
    });
    expect(blocks).toEqual([{ type: 'image', image_url: 'https://cdn.example/c.png', alt_text: 'Chart' }]);
  });
});

describe('renderBlocks: layout and Block Kit limits', () => {
  it('renders header, text, the progress bar once, fields, links and footer in that order', () => {
    const { blocks } = renderBlocks({
      title: 'Funding',
      badge: 'live',
      text: 'Going well',
      progress: { current: 4500, goal: 10000, percent: 45, label: '45%' },
      fields: [
        { name: 'Raised', value: '4,500 €', inline: true },
        { name: 'Goal', value: '10,000 €', inline: true },
      ],
      links: [{ label: 'Project', url: trustedUrl }],
      footer: 'updated 1 minute ago',
    });
    expect(blocks.map((b) => b.type)).toEqual([
      'header',
      'section',
      'section',
      'rich_text',
      'rich_text',
      'context',
    ]);
    expect(blocks[0]).toMatchObject({ text: { type: 'plain_text', text: 'Funding · live' } });
    expect(blocks[2]).toMatchObject({ text: { type: 'plain_text', text: '▰▰▰▰▱▱▱▱▱▱ 45%' } });
    expect(blocks[3]).toEqual({
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'text', text: 'Raised', style: { bold: true } },
            { type: 'text', text: ': 4,500 €' },
            { type: 'text', text: '\n' },
            { type: 'text', text: 'Goal', style: { bold: true } },
            { type: 'text', text: ': 10,000 €' },
          ],
        },
      ],
    });
    expect(blocks[5]).toEqual({
      type: 'context',
      elements: [{ type: 'plain_text', text: 'updated 1 minute ago', emoji: true }],
    });
    expect(JSON.stringify(blocks).match(/▰/g)?.length).toBe(4);
  });

  it('draws a field list as a bulleted rich text list (the digest lists)', () => {
    const { blocks } = renderBlocks({
      fields: [{ name: 'Rewards sold', value: '', items: ['3× Mug', '1× Tee'] }],
    });
    expect(blocks).toEqual([
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [{ type: 'text', text: 'Rewards sold', style: { bold: true } }],
          },
          {
            type: 'rich_text_list',
            style: 'bullet',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: '3× Mug' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: '1× Tee' }] },
            ],
          },
        ],
      },
    ]);
  });

  it('keeps the message within 50 blocks', () => {
    const fields = Array.from({ length: 1000 }, (_, i) => ({
      name: `f${i}`,
      value: `v${i}`,
      inline: i % 50 !== 0,
    }));
    const { blocks } = renderBlocks({ title: 't', text: 'x', fields, footer: 'end' });
    expect(blocks.length).toBeLessThanOrEqual(slackLimits.blocks);
    expect(blocks.at(-1)?.type).toBe('context');
  });

  it('keeps every text within its limit: header 150, section 3000, field 2000', () => {
    const long = '&<>*'.repeat(3000);
    const { blocks, text } = renderBlocks({
      title: long,
      text: long,
      fields: [
        { name: long, value: long, inline: true },
        { name: long, value: long },
      ],
    });
    const header = blocks[0] as { text: { text: string } };
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    for (const piece of pieces(blocks)) expect(piece.text.length).toBeLessThanOrEqual(3000);
    expect(text.length).toBeLessThanOrEqual(slackLimits.fallbackText * 2);
  });

  it('never sends an empty message', () => {
    expect(renderBlocks({}).blocks).toHaveLength(1);
  });
});

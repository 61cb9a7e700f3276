import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, renderBlocks, renderMrkdwnText, slackLimits } from '../../src/adapters/slack/index.js';
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
function hostileMessage(text: string): NeutralMessage {
  return {
    title: text,
    text,
    badge: text,
    footer: text,
    fields: [
      { name: text, value: text, inline: true },
      { name: text, value: text },
    ],
    progress: { current: 50, goal: 100, percent: 50 },
    image: { kind: 'url', url: 'https://cdn.platform.example/image.png', alt: text },
    links: [{ label: text, url: trustedUrl }],
  };
}

interface TextPiece {
  readonly kind: 'plain_text' | 'mrkdwn' | 'fallback' | 'alt';
  readonly text: string;
}

/** Collects every text Slack will display from a block tree. */
function texts(node: unknown, out: TextPiece[] = []): TextPiece[] {
  if (Array.isArray(node)) {
    for (const child of node) texts(child, out);
  } else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if ((record.type === 'plain_text' || record.type === 'mrkdwn') && typeof record.text === 'string') {
      out.push({ kind: record.type, text: record.text });
    }
    if (typeof record.alt_text === 'string') out.push({ kind: 'alt', text: record.alt_text });
    for (const [key, value] of Object.entries(record))
      if (key !== 'text' || typeof value !== 'string') texts(value, out);
  }
  return out;
}

/** Anything Slack would turn into a mention, link, broadcast or quote. */
function assertInertMrkdwn(text: string, context: string): void {
  // Every `<` opens one of OUR links to the trusted URL; user text only ever shows as &lt;.
  for (const match of text.matchAll(/<([^>]*)>/g)) {
    expect(match[1]?.startsWith(`${trustedUrl}|`), `${context}: control sequence ${match[0]}`).toBe(true);
  }
  expect(text, context).not.toMatch(/<[!@#]/);
  expect(text, context).not.toMatch(/^\s*(>|&gt;)/m);
  assertNoAutolinkOrBroadcast(text, context);
}

function assertNoAutolinkOrBroadcast(text: string, context: string): void {
  const withoutTrusted = text.replaceAll(trustedUrl, '');
  expect(withoutTrusted, context).not.toMatch(/[a-z]:\/\//i);
  expect(withoutTrusted, context).not.toMatch(/evil\.example|www\./i);
  expect(withoutTrusted, context).not.toMatch(/@(here|channel|everyone)/i);
}

/** Look-alike characters the fallback once used for `* _ ~ \``. */
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

/**
 * Formatting: the escaped user text holds no mrkdwn formatting character, and once it
 * is replaced by `U`, what is left of a mrkdwn text is exactly our own structure.
 */
function structureOf(piece: string, userText: string): string {
  const escaped = [escapeMrkdwn(userText), escapeMrkdwn(userText.replace(/\s+/g, ' ').trim())];
  // Mid-line, a `>` needs no zero-width space in front (only a line start makes a quote).
  const variants = [...escaped, ...escaped.map((v) => v.replace(/^\u200b/, ''))];
  return variants.reduce((rest, variant) => rest.replaceAll(variant, 'U'), piece);
}

describe('renderBlocks: user text can never mention, link or format', () => {
  it.each(hostile.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'every field of the model with %s',
    (_label, text) => {
      const rendering = renderBlocks(hostileMessage(text));
      const pieces = texts(rendering.blocks);
      expect(pieces.length).toBeGreaterThan(5);
      for (const piece of pieces) {
        if (piece.kind === 'mrkdwn') assertInertMrkdwn(piece.text, `mrkdwn ${piece.text.slice(0, 80)}`);
        else assertNoAutolinkOrBroadcast(piece.text, `${piece.kind} ${piece.text.slice(0, 80)}`);
      }
      assertInertFallback(rendering.text, text);
      const comment = renderMrkdwnText(hostileMessage(text));
      assertInertMrkdwn(comment, 'file comment');

      if (text.length > 150) return; // clipped: the structure check needs the whole text
      expect(escapeMrkdwn(text)).not.toMatch(/[*_~`<>]/);
      const mrkdwnStructures = pieces
        .filter((p) => p.kind === 'mrkdwn')
        .map((p) => structureOf(p.text, text));
      expect(mrkdwnStructures).toEqual(['*U*\nU', '*U*\nU', `<${trustedUrl}|U>`]);
      expect(structureOf(comment, text).split('\n')).toEqual([
        '*U* · U',
        'U',
        '▰▰▰▰▰▱▱▱▱▱ 50%',
        '*U*: U',
        '*U*: U',
        `<${trustedUrl}|U>`,
        'U',
      ]);
    },
  );

  it('sets verbatim on every mrkdwn object so Slack does not auto-parse it', () => {
    const blocks = JSON.stringify(renderBlocks(hostileMessage('x')).blocks);
    const mrkdwnCount = blocks.match(/"type":"mrkdwn"/g)?.length ?? 0;
    expect(mrkdwnCount).toBeGreaterThan(0);
    expect(blocks.match(/"verbatim":true/g)?.length).toBe(mrkdwnCount);
  });

  it('escapes & first, so an entity a user typed shows as typed instead of becoming a <', () => {
    expect(escapeMrkdwn('&lt;!channel&gt;')).toBe('&amp;lt;!channel&amp;gt;');
    expect(escapeMrkdwn('<@U123> & <!here>')).toBe('&lt;@U123&gt; &amp; &lt;!here&gt;');
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
  it('links the title and the links from http(s) URLs, with escaped labels', () => {
    const { blocks } = renderBlocks({
      title: 'Solar <kiosk>',
      titleUrl: 'https://platform.example/p?a=1&b=2|x',
      links: [
        { label: 'Open *now*', url: trustedUrl },
        { label: 'evil', url: 'javascript:alert(1)' },
        { label: 'data', url: 'data:text/html,hi' },
      ],
    });
    expect(blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*<https://platform.example/p?a=1&amp;b=2%7Cx|Solar &lt;kiosk&gt;>*',
        verbatim: true,
      },
    });
    expect(blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `<${trustedUrl}|Open ∗now∗>`, verbatim: true },
    });
    expect(blocks).toHaveLength(2);
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
  it('renders header, text, progress bar, fields, links and footer in that order', () => {
    const { blocks } = renderBlocks({
      title: 'Funding',
      badge: 'live',
      text: 'Going well',
      progress: { current: 4500, goal: 10000, percent: 45 },
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
      'section',
      'section',
      'context',
    ]);
    expect(blocks[0]).toMatchObject({ text: { type: 'plain_text', text: 'Funding · live' } });
    expect(blocks[2]).toMatchObject({ text: { type: 'plain_text', text: '▰▰▰▰▰▱▱▱▱▱ 45%' } });
    expect(blocks[3]).toMatchObject({
      fields: [
        { type: 'mrkdwn', text: '*Raised*\n4,500 €' },
        { type: 'mrkdwn', text: '*Goal*\n10,000 €' },
      ],
    });
    expect(blocks[5]).toEqual({
      type: 'context',
      elements: [{ type: 'plain_text', text: 'updated 1 minute ago', emoji: true }],
    });
  });

  it('puts at most 10 fields in a section and keeps the message within 50 blocks', () => {
    const fields = Array.from({ length: 1000 }, (_, i) => ({
      name: `f${i}`,
      value: `v${i}`,
      inline: i % 50 !== 0,
    }));
    const { blocks } = renderBlocks({ title: 't', text: 'x', fields, footer: 'end' });
    expect(blocks.length).toBe(slackLimits.blocks);
    expect(blocks.at(-1)?.type).toBe('context');
    for (const block of blocks) {
      if (block.type === 'section' && block.fields) expect(block.fields.length).toBeLessThanOrEqual(10);
    }
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
    for (const piece of texts(blocks)) expect(piece.text.length).toBeLessThanOrEqual(3000);
    const fieldsBlock = blocks.find((b) => b.type === 'section' && 'fields' in b && b.fields) as {
      fields: { text: string }[];
    };
    for (const field of fieldsBlock.fields) expect(field.text.length).toBeLessThanOrEqual(2000);
    // Cutting never leaves half an entity behind.
    for (const piece of texts(blocks)) expect(piece.text).not.toMatch(/&[a-z]*…$/);
    expect(text.length).toBeLessThanOrEqual(slackLimits.fallbackText * 2);
  });

  it('never sends an empty message', () => {
    expect(renderBlocks({}).blocks).toHaveLength(1);
  });
});

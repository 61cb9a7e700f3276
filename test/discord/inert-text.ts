import { expect } from 'vitest';

/**
 * Assertions that a rendered string is inert on Discord. They model what the
 * Discord client would turn into a ping, a link or formatting.
 */

/** Nothing that pings or links, in any context (plain or markdown). */
export function expectNoPingOrLink(text: string): void {
  expect(text, 'no @everyone/@here').not.toMatch(/@(everyone|here)/i);
  expect(text, 'no <@id>, <@&id>, <#id>, </cmd:id>, <https://…>').not.toMatch(/<[@#/:!&a-z]/i);
  expect(text, 'no auto-linked URL').not.toMatch(/:\/\//);
}

/** The text with every backslash escape removed: what is left is what Discord would interpret. */
function unescaped(text: string): string {
  return text.replace(/\\[\s\S]/g, '');
}

/** Nothing that Discord's markdown would format, in description/title/field text. */
export function expectInertMarkdown(text: string): void {
  expectNoPingOrLink(text);
  const bare = unescaped(text);
  expect(bare, 'no unescaped emphasis, code, spoiler or link brackets').not.toMatch(/[*_`[\]]|~~|\|\|/);
  for (const line of text.split('\n')) {
    expect(line, 'no heading, quote, list or subtext at line start').not.toMatch(
      /^\s*(#{1,3}\s|>|-#|[-*]\s|\d+\.\s)/,
    );
  }
}

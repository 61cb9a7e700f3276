import { describe, expect, it } from 'vitest';
import { clip, escapeDiscordMarkdown, neutralizeDiscordText } from '../../src/adapters/discord/index.js';
import { hostileLongText, hostileTexts } from '../../src/simulator/hostile-texts.js';
import { expectInertMarkdown, expectNoPingOrLink } from './inert-text.js';

const extraHostile = [
  '-# tiny print',
  '1. first\n2. second',
  '- bullet',
  '>>> multi quote',
  '</funding:123>',
  '<t:1700000000:R>',
  '<a:party_parrot:123>',
  'see https://evil.example/a_b_c_ now',
  '<https://evil.example>',
  '[click](<https://evil.example>)',
  '[multi\nline](https://evil.example)',
  'steam://run/1 discord://x',
  '@EVERYONE @Here',
  'back\\slash \\*not bold\\*',
  'mixed @everyone **[x](https://evil.example)** <@&1>',
];

describe('escapeDiscordMarkdown', () => {
  it.each([...hostileTexts, ...extraHostile, hostileLongText])(
    'leaves no ping, link or markup in %#',
    (text) => {
      expectInertMarkdown(escapeDiscordMarkdown(text));
    },
  );

  it('keeps ordinary text readable', () => {
    expect(escapeDiscordMarkdown('Danke für 42 € an Jörg!')).toBe('Danke für 42 € an Jörg!');
  });

  it('escapes emphasis instead of dropping it, so the text reads as written', () => {
    expect(escapeDiscordMarkdown('**bold**')).toBe('\\*\\*bold\\*\\*');
    expect(escapeDiscordMarkdown('# heading')).toBe('\\# heading');
    expect(escapeDiscordMarkdown('> quote')).toBe('\\> quote');
  });

  it('breaks masked links so neither the label nor the target becomes clickable', () => {
    const out = escapeDiscordMarkdown('[x](https://evil.example)');
    expect(out).toBe('\\[x\\](https:\u200b//evil.example)');
  });
});

describe('neutralizeDiscordText (contexts without markdown: footer, author, button labels)', () => {
  it.each([...hostileTexts, ...extraHostile])('leaves no ping or link in %#', (text) => {
    expectNoPingOrLink(neutralizeDiscordText(text));
  });

  it('adds only invisible characters', () => {
    const text = 'hey @everyone <@123> https://evil.example';
    expect(neutralizeDiscordText(text).replace(/\u200b/g, '')).toBe(text);
  });
});

describe('clip', () => {
  it('keeps text within the limit in UTF-16 units and marks the cut', () => {
    const out = clip('🚀'.repeat(100), 51);
    expect(out.length).toBeLessThanOrEqual(51);
    expect(out.endsWith('…')).toBe(true);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('does not leave a dangling escape before the ellipsis', () => {
    const out = clip('\\*'.repeat(10), 6);
    expect(out.length).toBeLessThanOrEqual(6);
    expect(out).not.toMatch(/(^|[^\\])(\\\\)*\\…$/);
  });

  it('leaves short text alone', () => {
    expect(clip('short', 10)).toBe('short');
  });
});

describe('the inertness checks themselves', () => {
  it.each(['@everyone', '<@123>', 'https://evil.example', '**bold**', '[x](y)', '# heading', '> quote'])(
    'reject raw hostile text %s',
    (text) => {
      expect(() => expectInertMarkdown(text)).toThrow();
    },
  );
});

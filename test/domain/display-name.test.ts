import { describe, expect, test } from 'vitest';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { displayName, singleLine, visibleLine } from '../../src/domain/text.js';
import { allText } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';

/** Names that show nothing in a chat client although they are not whitespace. */
const blankNames: Record<string, string> = {
  'Hangul filler U+3164': '\u3164',
  'Hangul choseong/jungseong fillers U+115F U+1160': '\u115f\u1160',
  'halfwidth Hangul filler U+FFA0': '\uffa0\uffa0',
  'soft hyphen U+00AD': '\u00ad\u00ad',
  'combining grapheme joiner U+034F': '\u034f',
  'zero-width space, joiners and marks U+200B-U+200F': '\u200b\u200c\u200d\u200e\u200f',
  'word joiner and invisible operators U+2060-U+2064': '\u2060\u2061\u2062\u2063\u2064',
  'byte-order mark U+FEFF': '\ufeff',
  'tag characters U+E0000-U+E007F': '\u{e0001}\u{e0041}\u{e007f}',
  'bidi overrides and isolates': '\u202e\u202d\u2066\u2067\u2068\u2069\u061c',
  'Braille blank U+2800': '\u2800',
  'variation selector alone': '\ufe0f',
  'a mix with ordinary blanks': ' \u3164 \u00a0\u200b\t\u115f ',
};

describe('displayName: the one rule for a name that shows nothing', () => {
  test.each(Object.entries(blankNames))('%s becomes the placeholder', (_label, raw) => {
    expect(displayName(raw, 60, 'a supporter')).toBe('a supporter');
  });

  test('the invisible characters are removed from visible names too', () => {
    expect(singleLine('Gr\u3164ace\u00ad\u{e0041} H.\u202e', 60)).toBe('Grace H.');
    expect(displayName('Zoë 🌞', 60, 'a supporter')).toBe('Zoë 🌞');
    expect(displayName('❤️', 60, 'a supporter')).toBe('❤️');
  });
});

describe('a blank name in what reaches a channel', () => {
  test('a supporter notice shows the localized placeholder, never a blank name', () => {
    const event = buildEvent.supporter({ displayName: '\u3164' });
    expect(renderNotice(event, 'en', 'UTC').title).toBe('🎉 New supporter: a supporter');
    expect(renderNotice(event, 'de', 'UTC').title).toBe('🎉 Neuer Unterstützer: jemand');
  });

  test('a wall post by a blank author names the placeholder', () => {
    const event = buildEvent.wallPost({ author: '\u115f\u1160\u00ad' });
    expect(renderNotice(event, 'en', 'UTC').title).toContain('a supporter');
    expect(renderNotice(event, 'de', 'UTC').title).toContain('jemand');
  });

  test('in a burst a blank name is counted in "and N more", not listed as a blank', () => {
    const event = buildEvent.supporterBurst({ displayNames: ['Ada', '\u{e0041}\u{e0042}'], count: 2 });
    const text = allText(renderNotice(event, 'en', 'UTC'));
    expect(text).toContain('Ada and 1 more');
  });
});

describe('a title that shows nothing', () => {
  test.each(Object.entries(blankNames))(
    'a blog post titled with %s is "untitled" in every language',
    (_label, raw) => {
      const event = buildEvent.blogPost({ title: raw });
      expect(renderNotice(event, 'en', 'UTC').title).toBe('📝 New blog post: (untitled)');
      expect(renderNotice(event, 'de', 'UTC').title).toBe('📝 Neuer Blogbeitrag: (ohne Titel)');
    },
  );

  test('reward titles take the same fallback; a visible title stays as it is', () => {
    expect(renderNotice(buildEvent.rewardSoldOut({ title: '\u200b\u2060' }), 'en', 'UTC').title).toContain(
      '(untitled)',
    );
    expect(renderNotice(buildEvent.rewardUnlocked({ title: '\u3164' }), 'de', 'UTC').title).toContain(
      '(ohne Titel)',
    );
    expect(visibleLine('We are \u200blive!', 80, '(untitled)')).toBe('We are live!');
  });
});

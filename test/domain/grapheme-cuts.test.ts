import { describe, expect, test } from 'vitest';
import { clip as discordClip } from '../../src/adapters/discord/escape-discord.js';
import { clip as slackClip } from '../../src/adapters/slack/slack-text.js';
import { graphemes, normalizeWhitespace, shorten, visibleLine } from '../../src/domain/text.js';
import { limits } from '../../src/domain/text-limits.js';

import { joinedTexts, textLimitNames } from '../support/joined-texts.js';

/** Code points, the unit of the text limits. */
const textSize = (text: string) => Array.from(text).length;

/** True when `cut` (without a trailing ellipsis) is a run of whole clusters from the start of `whole`. */
function isWholeClusterPrefix(cut: string, whole: string): boolean {
  const kept = graphemes(cut.endsWith('…') ? cut.slice(0, -1) : cut);
  const original = graphemes(whole);
  return kept.every((cluster, i) => cluster === original[i]);
}

/**
 * `pad` letters, then the sample repeated: for each `shift` the bound falls one code point
 * further into the sample, so every position inside every cluster is tried.
 */
function textCutInside(sample: string, max: number, shift: number): string {
  const pad = 'x'.repeat(Math.max(0, max - 1 - textSize(sample) - shift));
  return pad + sample.repeat(Math.ceil(max / textSize(sample)) + 2);
}

describe('cutting at every text limit never splits a grapheme cluster', () => {
  for (const limitName of textLimitNames) {
    const max = limits[limitName];
    test.each(Object.entries(joinedTexts))(`limits.${limitName} (${max}): %s`, (_label, sample) => {
      for (let shift = 0; shift <= textSize(sample); shift++) {
        const text = textCutInside(sample, max, shift);
        for (const cut of [shorten(text, max), visibleLine(text, max, '?')]) {
          expect(textSize(cut)).toBeLessThanOrEqual(max);
          expect(cut.endsWith('…')).toBe(true);
          expect(isWholeClusterPrefix(cut, text), `${JSON.stringify(cut)} at shift ${shift}`).toBe(true);
          // The sample itself survives whole before the cut: its joiners were kept.
          expect(cut).toContain(sample);
        }
      }
    });
  }

  test("the platforms' own bounds (UTF-16 code units) cut whole clusters too", () => {
    for (const sample of Object.values(joinedTexts)) {
      const text = `x${sample.repeat(40)}`;
      for (let max = 2; max <= 3 * sample.length + 2; max++) {
        for (const cut of [discordClip(text, max), slackClip(text, max)]) {
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(isWholeClusterPrefix(cut, text), `${JSON.stringify(cut)} at ${max}`).toBe(true);
        }
      }
    }
  });

  test('a text within its bound is returned as it is; a cluster longer than the bound is left out whole', () => {
    const family = joinedTexts['a family (ZWJ sequence)'];
    expect(shorten(family, 7)).toBe(family);
    expect(shorten(`${family}${family}`, 8)).toBe(`${family}…`);
    expect(shorten(`a${'\u0301'.repeat(500)}`, limits.name)).toBe('…');
  });
});

describe('the invisible-character filter keeps the joiners writing needs', () => {
  test.each(Object.entries(joinedTexts))('%s is kept exactly', (_label, sample) => {
    expect(normalizeWhitespace(`Ada ${sample} Lovelace`)).toBe(`Ada ${sample} Lovelace`);
  });

  test.each([
    ['alone', '\u200d', ''],
    ['at the edges of a name', '\u200cمی\u200d', 'می'],
    ['next to a space', 'می \u200cخواهم', 'می خواهم'],
    ['in a run', 'می\u200c\u200cخواهم', 'میخواهم'],
    ['between Latin letters (a look-alike of another name)', 'Gr\u200dace Ad\u200ca', 'Grace Ada'],
    [
      'inside a word the renderers neutralise',
      '@every\u200done <\u200d!channel> https\u200d://x.example',
      '@everyone <!channel> https://x.example',
    ],
    ['between an emoji and a letter', '👩\u200dx', '👩x'],
    ['ZWNJ between emoji (no emoji sequence uses it)', '👩\u200c💻', '👩💻'],
    ['tag characters hiding text', 'hi\u{e0041}\u{e0042}\u{e007f}', 'hi'],
    ['a flag whose tags are never closed', '🏴\u{e0067}\u{e0062}', '🏴'],
  ])('a joiner or tag %s is removed', (_label, raw, clean) => {
    expect(normalizeWhitespace(raw)).toBe(clean);
  });

  test('spoofing characters are still removed around kept joiners', () => {
    expect(normalizeWhitespace('می\u200cخواهم\u202e\u200b👨\u200d👩\u2066')).toBe('می\u200cخواهم👨\u200d👩');
  });
});

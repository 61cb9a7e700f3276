import { decodeHTML } from 'entities/decode';

/**
 * Turning untrusted, possibly HTML text from the API into safe plain text.
 * Platform escaping (Discord markdown, Slack mrkdwn) happens later, in each
 * adapter's renderer; this only makes the text plain and bounded.
 */

/**
 * HTML to plain text: block elements become line breaks, list items bullets,
 * every tag (and script/style content) disappears, entities are decoded.
 * Links keep their label only: a URL smuggled into an href never reaches a channel.
 *
 * Entities are decoded by `entities` (the decoder of htmlparser2 and cheerio), with the
 * HTML standard's whole table of 2,231 named references and its rules for numeric ones
 * (`&#0;` and surrogates become U+FFFD, `&#x80;` the euro sign as browsers show it), in
 * the standard's text mode, so `&eacute;`, `&rsquo;` and `&copy;` read as a browser shows
 * them. The order is the safety: tags are removed first, so an encoded tag (`&lt;b&gt;`)
 * decodes to literal text, never markup; decoding is one pass, so `&amp;lt;` stays `&lt;`;
 * and the invisible-character filter runs after it, so an encoded bidi override or
 * zero-width space (`&#x202E;`, `&ZeroWidthSpace;`) is removed like a typed one. What
 * decodes to `<`, `@everyone` or a URL is user text like any other: each adapter's renderer
 * neutralises it.
 */
export function htmlToPlainText(html: string): string {
  const withoutScripts = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  const withBreaks = withoutScripts
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|ul|ol|blockquote|tr)\s*>/gi, '\n');
  const withoutTags = withBreaks.replace(/<[^>]*>/g, '').replace(/</g, '‹');
  return normalizeWhitespace(decodeHTML(withoutTags));
}

/**
 * Characters that show nothing, or nothing but blank space, yet are not whitespace, so
 * `trim()` keeps them: C0/C1 controls (no terminal escape survives), the soft hyphen
 * U+00AD, the combining grapheme joiner U+034F, the Hangul fillers (U+115F, U+1160,
 * U+3164, U+FFA0), Khmer inherent vowels U+17B4/U+17B5, the Mongolian vowel separator,
 * zero-width characters and the bidi marks, embeddings, overrides and isolates (which can
 * reorder what a reader sees), word joiners and invisible operators U+2060-U+206F, the
 * Braille blank U+2800, the byte-order mark and the tag characters U+E0000-U+E007F.
 */
const invisibleCharacters =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]|\u034f/gu;

/** Variation selectors only restyle the character before them: alone they show nothing. */
const variationSelectors = /\p{Variation_Selector}/gu;

/**
 * Removes the {@link invisibleCharacters} and folds runs of blank space.
 */
export function normalizeWhitespace(text: string): string {
  return text
    .replace(invisibleCharacters, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Shortens to at most `max` characters (code points), ending with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, Math.max(0, max - 1)).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length > max * 0.6 ? atWord : cut}…`;
}

/** One line: for names and titles that must not break a layout. */
export function singleLine(text: string, max: number): string {
  return shorten(normalizeWhitespace(text).replace(/\s*\n\s*/g, ' '), max);
}

/**
 * A name or title from the platform (a supporter, a wall post's author, a blog post or reward
 * title), on one line and bounded. One with nothing visible left (only invisible, blank,
 * bidi-control characters or variation selectors) becomes `fallback`, the caller's localized
 * "a supporter" or "untitled", so nothing a channel shows is blank. Every place that shows a
 * name or a title goes through here.
 */
export function visibleLine(raw: string, max: number, fallback: string): string {
  const line = singleLine(raw, max);
  return line.replace(variationSelectors, '').trim() === '' ? fallback : line;
}

/** A person's name: {@link visibleLine} with the caller's localized "a supporter". */
export const displayName = visibleLine;

/** Only absolute http(s) URLs survive; anything else (javascript:, data:, relative) becomes undefined. */
export function safeHttpUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}

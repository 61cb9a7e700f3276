import { decodeHTML } from 'entities/decode';
import { fitsWithin, graphemePrefix } from './graphemes.js';
import { removeInvisibleCharacters } from './invisible-characters.js';

export { fitsWithin, graphemePrefix, graphemes, type TextUnit } from './graphemes.js';

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

/** Variation selectors only restyle the character before them: alone they show nothing. */
const variationSelectors = /\p{Variation_Selector}/gu;

/**
 * Removes the invisible characters that can hide or spoof (keeping the joiners names and
 * emoji need: invisible-characters.ts) and folds runs of blank space.
 */
export function normalizeWhitespace(text: string): string {
  return removeInvisibleCharacters(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Shortens to at most `max` characters (code points), ending with an ellipsis when cut: at
 * the last word break when that keeps most of the text, and never inside a grapheme cluster
 * (an emoji ZWJ sequence, a flag, a letter with its marks: graphemes.ts).
 */
export function shorten(text: string, max: number): string {
  if (fitsWithin(text, max)) return text;
  const cut = graphemePrefix(text, max - 1);
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

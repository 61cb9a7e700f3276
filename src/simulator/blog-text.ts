/** Maximum length of the public teaser of a supporter-only post (spec, Limits). */
export const teaserMaxChars = 400;

/** Strips tags and collapses whitespace: enough for teasers and word counts of simulated posts. */
export function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Cuts to at most `max` UTF-16 code units (what `.length` counts in every client)
 * without splitting a surrogate pair, adding an ellipsis when cut.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return out + '…';
}

/** The public teaser: the given description or the start of the text, never over 400 characters. */
export function teaserOf(text: string, description?: string): string {
  const source = description ?? stripTags(text);
  return cutText(source, teaserMaxChars);
}

/** Reading time in whole minutes (200 words a minute, at least 1) of the FULL text. */
export function readingTimeMinutes(text: string): number {
  const words = stripTags(text)
    .split(' ')
    .filter((w) => w.length > 0).length;
  return Math.max(1, Math.ceil(words / 200));
}

/**
 * Turning untrusted, possibly HTML text from the API into safe plain text.
 * Platform escaping (Discord markdown, Slack mrkdwn) happens later, in each
 * adapter's renderer; this only makes the text plain and bounded.
 */

const namedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  euro: '€',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return namedEntities[body] ?? whole;
  });
}

/**
 * HTML to plain text: block elements become line breaks, list items bullets,
 * every tag (and script/style content) disappears, entities are decoded.
 * Links keep their label only: a URL smuggled into an href never reaches a channel.
 */
export function htmlToPlainText(html: string): string {
  const withoutScripts = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  const withBreaks = withoutScripts
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|ul|ol|blockquote|tr)\s*>/gi, '\n');
  const withoutTags = withBreaks.replace(/<[^>]*>/g, '').replace(/</g, '‹');
  return normalizeWhitespace(decodeEntities(withoutTags));
}

/**
 * Removes control characters (C0 and C1, so no terminal escape survives), zero-width and
 * bidi override/isolate characters (which can reorder what a reader sees), and folds runs
 * of blank space.
 */
export function normalizeWhitespace(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
      '',
    )
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

/**
 * Making untrusted plain text inert on Slack.
 *
 * Slack parses message text and `mrkdwn` text objects: `<!channel>`, `<@U…>`,
 * `<url|label>`, `*bold*`, `_italic_`, `~strike~`, `` `code` ``, `> quote`, and
 * (unless `verbatim`) bare URLs and `@here`. There is no backslash escape, so:
 * - `&`, `<`, `>` become entities (`&` first), which Slack shows literally: no
 *   control sequence (mention, broadcast, link) can be written by a user;
 * - the formatting characters become look-alike characters that mrkdwn does not
 *   know (`∗ ˍ ∼ ˋ`): the text reads the same, but cannot bold, hide or fake code;
 * - a quote at the start of a line gets a zero-width space in front;
 * - `scheme://`, `www.` and `name.tld` get a zero-width space, so no client
 *   auto-links a URL a stranger wrote (only trusted links are clickable);
 * - `@here`, `@channel`, `@everyone` get a zero-width space after the `@`.
 * The renderer also sets `verbatim: true` on every mrkdwn object: a second line of defence.
 */

const zeroWidthSpace = '\u200b';

const lookAlikes: Readonly<Record<string, string>> = {
  '*': '\u2217', // ∗ asterisk operator
  _: '\u02cd', // ˍ modifier letter low macron
  '~': '\u223c', // ∼ tilde operator
  '`': '\u02cb', // ˋ modifier letter grave accent
};

/** Breaks auto-linking and broadcast words; shared by the plain_text and mrkdwn paths. */
function defuseLinksAndBroadcasts(text: string): string {
  return (
    text
      .replace(/@(here|channel|everyone)\b/gi, `@${zeroWidthSpace}$1`)
      // A one-character lookbehind, not `[a-z][a-z0-9+.-]*:`: that scans quadratically on long letter runs.
      .replace(/(?<=[a-z0-9+.-]):(?=\/\/)/gi, `:${zeroWidthSpace}`)
      .replace(/\b(www)\./gi, `$1${zeroWidthSpace}.`)
      .replace(/([a-z0-9-])\.(?=[a-z]{2,63}\b)/gi, `$1${zeroWidthSpace}.`)
  );
}

/**
 * The three entities Slack requires in message text (`&` first, so a typed `&lt;`
 * shows as typed). Every control sequence of Slack's text (`<!channel>`, `<@U…>`,
 * `<#C…>`, `<url|label>`) needs a raw `<`, so after this none can be written.
 */
export function escapeSlackEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * For `mrkdwn` text shown in a message (section fields, link labels, file comments):
 * nothing a user wrote can become a mention, a link or formatting.
 */
export function escapeMrkdwn(text: string): string {
  const entities = escapeSlackEntities(text);
  const unformatted = entities.replace(/[*_~`]/g, (c) => lookAlikes[c] ?? c);
  const noQuotes = unformatted.replace(/^(\s*)&gt;/gm, `$1${zeroWidthSpace}&gt;`);
  return defuseLinksAndBroadcasts(noQuotes);
}

/**
 * For `plain_text` objects (header, text sections, context, alt text): Slack does not
 * parse them for mentions or markup, so no entity escaping (it would show `&amp;`);
 * only URLs are defused, in case a client auto-links them, and broadcast words.
 */
export function neutralizePlainText(text: string): string {
  return defuseLinksAndBroadcasts(text);
}

/**
 * A trusted http(s) URL made safe inside `<url|label>`: `|` would end the URL early,
 * `&` must be an entity like everywhere in message text; `<`, `>` and spaces are
 * already percent-encoded by the URL parser. Returns undefined for anything else.
 */
export function mrkdwnLinkUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return parsed
    .toString()
    .replace(/\|/g, '%7C')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/&/g, '&amp;');
}

/** `<url|label>` from a trusted URL and an untrusted label; the escaped label alone when the URL is not http(s). */
export function mrkdwnLink(url: string | undefined, label: string): string {
  const safeUrl = mrkdwnLinkUrl(url);
  const safeLabel = escapeMrkdwn(label) || 'link';
  return safeUrl ? `<${safeUrl}|${safeLabel}>` : safeLabel;
}

/**
 * Cuts to at most `max` UTF-16 code units (Slack counts characters no stricter than that),
 * never inside a surrogate pair or an entity, ending with an ellipsis when cut. Cutting
 * escaped text is safe: escaping never leaves a raw `<`, so a cut can only drop text.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const cut = text.slice(0, end).replace(/&[a-z]*$/, '');
  return `${cut}…`;
}

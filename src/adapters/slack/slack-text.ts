import { graphemePrefix } from '../../domain/text.js';

/**
 * Making untrusted plain text inert on Slack.
 *
 * Slack's `mrkdwn` has no escape for its formatting characters (`*bold*`, `_italic_`,
 * `~strike~`, `` `code` ``, `> quote`): a backslash stays visible and changes nothing,
 * and the only workarounds (look-alike characters, invisible characters between them)
 * change what the reader sees or copies. So fundbot never puts user text into mrkdwn:
 * - `plain_text` objects (header, text sections, context, alt text), which Slack never
 *   parses for markup or mentions;
 * - `rich_text` blocks (struck and linked titles, fields, lists, links), whose text
 *   elements are literal and whose bold, strike and links are structure, not characters
 *   (Slack's documentation prefers rich_text for exactly this);
 * - the notification fallback `text`, with the three entities Slack requires.
 * A name like "kiosk_lover" or "*solar*" therefore shows exactly as written.
 *
 * What remains is what a client might do with plain characters on its own: auto-link a
 * URL a stranger wrote, or read `@here` as a broadcast. {@link neutralizePlainText}
 * breaks those with an invisible zero-width space, and, as a second line of defence,
 * every `<!`, `<@`, `<#` (Slack's control sequences, which neither plain_text nor rich
 * text parses) too.
 */

const zeroWidthSpace = '\u200b';

/**
 * Breaks auto-linking, broadcast words and control sequences: `@here`, `@channel`,
 * `@everyone` get a zero-width space after the `@`, `<!`, `<@`, `<#` one after the `<`;
 * `scheme://`, `www.` and `name.tld` get one, so no client auto-links a URL a stranger
 * wrote (only trusted links are clickable).
 */
export function neutralizePlainText(text: string): string {
  return (
    text
      .replace(/@(here|channel|everyone)\b/gi, `@${zeroWidthSpace}$1`)
      .replace(/<(?=[!@#])/g, `<${zeroWidthSpace}`)
      // A one-character lookbehind, not `[a-z][a-z0-9+.-]*:`: that scans quadratically on long letter runs.
      .replace(/(?<=[a-z0-9+.-]):(?=\/\/)/gi, `:${zeroWidthSpace}`)
      .replace(/\b(www)\./gi, `$1${zeroWidthSpace}.`)
      .replace(/([a-z0-9-])\.(?=[a-z]{2,63}\b)/gi, `$1${zeroWidthSpace}.`)
  );
}

/**
 * The three entities Slack requires in message `text` (`&` first, so a typed `&lt;`
 * shows as typed). Every control sequence of Slack's text (`<!channel>`, `<@U…>`,
 * `<#C…>`, `<url|label>`) needs a raw `<`, so after this none can be written.
 */
export function escapeSlackEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Cuts to at most `max` UTF-16 code units (Slack counts characters no stricter than that),
 * never inside a grapheme cluster (an emoji ZWJ sequence, a flag, a letter with its marks)
 * or an entity, ending with an ellipsis when cut.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${graphemePrefix(text, max - 1, 'utf16').replace(/&[a-z]*$/, '')}…`;
}

import { graphemePrefix } from '../../domain/text.js';

/**
 * Making untrusted plain text inert on Discord.
 *
 * `allowed_mentions: { parse: [] }` already stops pings, but it is the second
 * line of defence: the text itself must not read as a mention, a link or markup,
 * so that a stranger's display name can never look like an announcement from the
 * team, and a future code path that forgets `allowedMentions` still pings nobody.
 */

const zeroWidthSpace = '\u200b';

/**
 * Neutralises what Discord turns into pings or links, in every context:
 * - `@everyone` / `@here` get a zero-width space after the `@`;
 * - `<@id>`, `<@!id>`, `<@&id>`, `<#id>`, `</cmd:id>`, `<t:…>`, `<https://…>` get one after the `<`;
 * - every `://` gets one after the `:`, so no bare URL is auto-linked (masked links
 *   `[x](url)` then have no valid target either).
 * The zero-width spaces are invisible, so the text still reads as written. Every
 * pattern here is linear in the text length: hostile text may be long.
 */
export function neutralizeDiscordText(text: string): string {
  return text
    .replace(/@(everyone|here)/gi, `@${zeroWidthSpace}$1`)
    .replace(/<(?=\S)/g, `<${zeroWidthSpace}`)
    .replace(/:(?=\/\/)/g, `:${zeroWidthSpace}`);
}

/**
 * For text Discord renders as markdown (embed title, description, field names
 * and values): neutralises mentions and links, then backslash-escapes every
 * character that can start markup: `\ * _ ~ | \` [ ]` anywhere, and `# > -` and
 * `1.` at the start of a line (headings, quotes, subtext, lists). Discord shows
 * any backslash-escaped punctuation literally, so the text reads as written.
 *
 * discord.js's `escapeMarkdown` is not used: its underscore rule has a lookbehind
 * that is quadratic in the text length (over a second for 5,000 characters of
 * hostile text), and it leaves quotes, subtext and brackets alone anyway.
 */
export function escapeDiscordMarkdown(text: string): string {
  return neutralizeDiscordText(text)
    .replace(/[\\*_~|`[\]]/g, '\\$&')
    .replace(/^([ \t]*)([#>-])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)\./gm, '$1\\.');
}

/**
 * Cuts to at most `max` UTF-16 code units (Discord's limits are no stricter than
 * that), never inside a grapheme cluster (an emoji ZWJ sequence, a flag, a letter with
 * its marks), ending with an ellipsis when cut. A cut after escaping is safe: every
 * escape inserts its neutralising character before or right after the dangerous one, so
 * a cut can only drop the danger, not expose it.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = graphemePrefix(text, max - 1, 'utf16');
  // A lone trailing backslash would escape the ellipsis: harmless, but untidy.
  const trailingBackslashes = kept.length - kept.replace(/\\+$/, '').length;
  if (trailingBackslashes % 2 === 1) kept = kept.slice(0, -1);
  return `${kept}…`;
}

import { escapeMarkdown } from 'discord.js';

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
 * - `scheme://` gets one after the `:`, so no bare URL is auto-linked (masked links
 *   `[x](url)` then have no valid target either).
 * The zero-width spaces are invisible, so the text still reads as written.
 */
export function neutralizeDiscordText(text: string): string {
  return text
    .replace(/@(everyone|here)/gi, `@${zeroWidthSpace}$1`)
    .replace(/<(?=\S)/g, `<${zeroWidthSpace}`)
    .replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, `$1:${zeroWidthSpace}`);
}

/**
 * For text Discord renders as markdown (embed title, description, field names
 * and values): escapes every markdown construct, then neutralises mentions and links.
 * discord.js's `escapeMarkdown` leaves block quotes, `-#` subtext and brackets alone,
 * so those are escaped here too.
 */
export function escapeDiscordMarkdown(text: string): string {
  const escaped = escapeMarkdown(text, {
    heading: true,
    bulletedList: true,
    numberedList: true,
  })
    .replace(/^(\s*)(>)/gm, '$1\\$2')
    .replace(/^(\s*)-#/gm, '$1\\-#')
    .replace(/[[\]]/g, '\\$&');
  return neutralizeDiscordText(escaped);
}

/**
 * Cuts to at most `max` UTF-16 code units (Discord's limits are no stricter than
 * that), never inside a surrogate pair, ending with an ellipsis when cut. A cut
 * after escaping is safe: every escape inserts its neutralising character before
 * or right after the dangerous one, so a cut can only drop the danger, not expose it.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  // A lone trailing backslash would escape the ellipsis: harmless, but untidy.
  let cut = text.slice(0, end);
  if (/(^|[^\\])(\\\\)*\\$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

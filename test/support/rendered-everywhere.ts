import { renderConsoleMessage } from '../../src/adapters/console/render-console-message.js';
import { renderEmbed } from '../../src/adapters/discord/render-embed.js';
import { renderBlocks } from '../../src/adapters/slack/render-blocks.js';
import type { NeutralMessage } from '../../src/core/message.js';

/** Every string Slack would display from a block tree (plain_text, mrkdwn and rich text alike). */
function slackTexts(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) slackTexts(child, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'text' && typeof value === 'string') out.push(value);
      else slackTexts(value, out);
    }
  }
  return out;
}

/**
 * What a reader sees of one message on each platform, through the real renderers: Slack's
 * Block Kit (without the notification fallback), Discord's embed, the console's text.
 * Zero-width spaces (inserted to break auto-links) and no-break spaces are taken out.
 */
export function renderedEverywhere(message: NeutralMessage): Record<'slack' | 'discord' | 'console', string> {
  const clean = (text: string) => text.replaceAll('\u200b', '').replace(/[\u00a0\u202f]/g, ' ');
  const [embed] = renderEmbed(message).embeds;
  const discord = [
    embed?.author?.name,
    embed?.title,
    embed?.description,
    ...(embed?.fields ?? []).flatMap((f) => [f.name, f.value]),
    embed?.footer?.text,
  ].filter((s): s is string => s !== undefined);
  return {
    slack: clean(slackTexts(renderBlocks(message).blocks).join('\n')),
    discord: clean(discord.join('\n')),
    console: clean(renderConsoleMessage(message)),
  };
}

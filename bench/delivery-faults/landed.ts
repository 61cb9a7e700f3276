/**
 * What the fakes hold for the delivery-faults bench: each channel's messages as readers saw them (with when
 * each landed and, for a copy the bot removed, when it went), and the bot's post requests with what the
 * platform did with them. Read from the fakes' own records, never from the bot.
 */
import type { FakeDiscord } from '../../test/fakes/discord/fake-discord.js';
import type { FakeSlack, FakeSlackMessage } from '../../test/fakes/slack/fake-slack.js';
import { type LandedMessage, namesIn, type PostAttempt } from './score.js';

/** A message with the span it stood in the channel (`until`: removed then; absent: still there). */
export interface ShownMessage extends LandedMessage {
  readonly until?: number;
}

const slackShown = (m: FakeSlackMessage, until?: number): ShownMessage => ({
  at: Number(m.ts) * 1000,
  text: [m.text, ...textsOf(m.blocks)].join('\n'),
  ...(until !== undefined ? { until } : {}),
});

/** A Slack channel's messages now. */
export function slackLanded(slack: FakeSlack, channel: string): LandedMessage[] {
  return (slack.messages.get(channel) ?? []).map((m) => slackShown(m));
}

/** A Slack channel's messages as they stood over the run: those there now, and those removed, until then. */
export function slackShownOverRun(slack: FakeSlack, channel: string): ShownMessage[] {
  return [
    ...slackLanded(slack, channel),
    ...slack.deleted
      .filter((d) => d.message.channel === channel)
      .map((d) => slackShown(d.message, d.deletedAt)),
  ];
}

/** Every text of a Block Kit structure (sections, headers, context): what the channel shows. */
function textsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value && typeof value === 'object') {
    const { text, ...rest } = value as { text?: unknown };
    return [...(typeof text === 'string' ? [text] : textsOf(text)), ...Object.values(rest).flatMap(textsOf)];
  }
  return [];
}

const discordShown = (m: Record<string, unknown>, until?: number): ShownMessage => {
  const embed = (m['embeds'] as { title?: string; description?: string }[] | undefined)?.[0];
  const id = BigInt(String(m['id']));
  return {
    at: Number((id >> 22n) + 1_420_070_400_000n),
    text: `${embed?.title ?? ''}\n${embed?.description ?? ''}`,
    ...(until !== undefined ? { until } : {}),
  };
};

/** Every Discord channel's messages now. */
export function discordLanded(discord: FakeDiscord): LandedMessage[] {
  return [...discord.channelMessages.values()].flatMap((list) => list.map((m) => discordShown(m)));
}

/** Discord's messages as they stood over the run (removed ones until their removal). */
export function discordShownOverRun(discord: FakeDiscord): ShownMessage[] {
  return [...discordLanded(discord), ...discord.deletedMessages.map((d) => discordShown(d.message, d.at))];
}

/** The bot's chat.postMessage requests to one channel, by what Slack answered. */
export function slackAttempts(slack: FakeSlack, channel: string): PostAttempt[] {
  return slack
    .callsTo('chat.postMessage')
    .filter((call) => call.args['channel'] === channel)
    .map((call) => ({
      at: call.at,
      outcome:
        call.outcome === 'ok'
          ? 'ok'
          : call.outcome === 'http 429'
            ? 'rate-limited'
            : call.outcome === 'not_in_channel'
              ? 'no-access'
              : 'fault',
      ...(call.outcome === 'http 429' ? { retryAfterMs: 5_000 } : {}),
      names: namesIn(String(call.args['text'] ?? '')),
    }));
}

/**
 * Create Message requests in the Discord channel: those inside the 500 window, the first after each late
 * answer was armed (`faultedAfter`) and the one 429 were not answered as posted.
 */
export function discordAttempts(
  discord: FakeDiscord,
  channelId: string,
  faultWindow: { readonly from: number; readonly to: number },
  faultedAfter: readonly number[],
): PostAttempt[] {
  const attempts: PostAttempt[] = [];
  const pending = [...faultedAfter].sort((a, b) => a - b);
  discord.requests.forEach((request, i) => {
    if (request.method !== 'POST' || request.path !== `/channels/${channelId}/messages`) return;
    const at = discord.requestTimes[i] ?? 0;
    const late = pending.length > 0 && (pending[0] ?? 0) <= at;
    if (late) pending.shift();
    const inFault = (at >= faultWindow.from && at < faultWindow.to) || late;
    const embed = (request.body as { embeds?: { title?: string; description?: string }[] }).embeds?.[0];
    attempts.push({
      at,
      outcome: inFault ? 'fault' : 'ok',
      names: namesIn(`${embed?.title ?? ''} ${embed?.description ?? ''}`),
    });
  });
  return attempts;
}

/**
 * For each supporter named more than once over the run: the longest time two messages naming it stood at the
 * same moment (`end`: the end of the run, for copies still there).
 */
export function shownTwice(messages: readonly ShownMessage[], end: number): Map<string, number> {
  const spans = new Map<string, { from: number; to: number }[]>();
  for (const m of messages)
    for (const name of new Set(namesIn(m.text)))
      spans.set(name, [...(spans.get(name) ?? []), { from: m.at, to: m.until ?? end }]);
  const overlaps = new Map<string, number>();
  for (const [name, list] of spans) {
    let longest = -1;
    for (let i = 0; i < list.length; i += 1)
      for (let j = i + 1; j < list.length; j += 1) {
        const a = list[i] as { from: number; to: number };
        const b = list[j] as { from: number; to: number };
        longest = Math.max(longest, Math.min(a.to, b.to) - Math.max(a.from, b.from));
      }
    if (longest >= 0) overlaps.set(name, longest);
  }
  return overlaps;
}

/**
 * Slack for the chat journey, in either mode: Socket Mode (commands delivered as envelopes over the fake's
 * WebSocket) or HTTP (commands POSTed to the bot's `/slack/events`, signed with the signing secret). Answers come
 * back through the command's response_url; the channel is what the fake's Web API recorded.
 */

import {
  type FakeSlack,
  lateAnswer,
  type RecordedCall,
  startFakeSlack,
} from '../../fakes/slack/fake-slack.js';
import { postSignedCommand, slashCommand } from '../../slack/helpers.js';
import { freePort } from '../../support/redis-server.js';
import { processStartMs, waitUntil } from '../../support/wait-until.js';
import type { BotProcess } from './bot-process.js';
import {
  type AnswerMessage,
  type ChannelEdit,
  type ChannelPost,
  type ChatDriver,
  type CommandRun,
  type RenderedText,
  slackVisibleMrkdwn,
  slackVisiblePlain,
} from './chat-driver.js';

const botToken = 'xoxb-4242-journey-bot-token';
const appToken = 'xapp-1-A0FAKE-4242-journey-app-token';
const signingSecret = 'journey-signing-secret-8f3a9c1d2e';
const users = { admin: 'U0ADMIN', member: 'U0MEMBER' };
const channels = { main: 'C0CAMPAIGN', other: 'C0KAMPAGNE', locked: 'C0ANNOUNCE' };
/** Commands whose public answer carries the chart: Slack gets it as a file share in the channel. */
const withChart = new Set(['chart', 'digest']);

export interface SlackDriver extends ChatDriver {
  readonly fake: FakeSlack;
}

export async function startSlackDriver(mode: 'socket' | 'http'): Promise<SlackDriver> {
  const fake = await startFakeSlack({
    botToken,
    users: [
      { id: users.admin, team_id: 'T0FAKE', name: 'lead', is_admin: true },
      { id: users.member, team_id: 'T0FAKE', name: 'member' },
    ],
  });
  // The bot was never invited there: /fundbot subscribe must say so and store nothing.
  fake.setChannel({ id: channels.locked, isMember: false });
  // The manifest subscribes the app to its channels' message events: over Socket Mode they come on its connection.
  if (mode === 'socket') fake.subscribeMessageEvents({ via: 'socket' });
  let port = 0;
  // When the journey first saw each recording: the fake keeps no times.
  const seenAt = new WeakMap<object, number>();
  const stamp = () => {
    const now = Date.now();
    for (const item of [...fake.responses, ...fake.calls, ...fake.acks])
      if (!seenAt.has(item)) seenAt.set(item, now);
  };
  const stamper = setInterval(stamp, 10);
  const at = (item: object) => seenAt.get(item) ?? Date.now();

  function shares(): { call: RecordedCall; files: Uint8Array[] }[] {
    return fake.callsTo('files.completeUploadExternal').flatMap((call) => {
      if (call.outcome !== 'ok') return [];
      const ids = (call.args['files'] as { id: string }[] | undefined) ?? [];
      const files = ids.flatMap((f) => fake.uploads.filter((u) => u.fileId === f.id).map((u) => u.bytes));
      return [{ call, files }];
    });
  }

  function command(
    name: string,
    args: readonly string[] = [],
    options: { admin?: boolean; channel?: string } = {},
  ): CommandRun {
    const responseUrl = fake.responseUrl();
    const responseId = responseUrl.split('/').at(-1) ?? '';
    const channel = options.channel ?? channels.main;
    const fields = slashCommand({
      response_url: responseUrl,
      command: '/fundbot',
      text: [name, ...args].join(' '),
      user_id: options.admin ? users.admin : users.member,
      user_name: options.admin ? 'lead' : 'member',
      channel_id: channel,
    });
    stamp();
    const sentAt = Date.now();
    // The shares already made (the last command's chart) are not this answer's, even within the same millisecond.
    const earlierCalls = new Set(fake.calls);
    const acknowledged =
      mode === 'socket'
        ? (() => {
            const envelopeId = fake.sendSlashCommand(fields);
            return fake
              .waitFor(
                () => fake.acks.find((a) => a.envelopeId === envelopeId),
                `the ack of /fundbot ${name}`,
                10_000,
              )
              .then((ack) => at(ack) - sentAt);
          })()
        : postSignedCommand(`http://127.0.0.1:${port}/slack/events`, signingSecret, fields).then(
            (response) => {
              if (response.status !== 200)
                throw new Error(`/fundbot ${name}: the receiver answered ${response.status}`);
              return Date.now() - sentAt;
            },
          );
    acknowledged.catch(() => undefined);
    const messages = (): AnswerMessage[] => {
      stamp();
      const replies = fake.responses
        .filter((r) => r.id === responseId)
        .map((r) => {
          const raw = blockStrings(r.body['blocks']);
          return {
            visibility: r.body['response_type'] === 'ephemeral' ? ('private' as const) : ('public' as const),
            text: visibleOf(r.body['blocks']),
            raw: [...raw, fallback(r.body['text'])],
            files: [],
            at: at(r),
          };
        });
      const charts = withChart.has(name)
        ? shares()
            .filter((s) => s.call.args['channel_id'] === channel && !earlierCalls.has(s.call))
            .map((s) => shareMessage(s.call, s.files, at(s.call)))
        : [];
      return [...charts, ...replies].sort((a, b) => a.at - b.at);
    };
    const message = (n: number, timeoutMs = 10_000) =>
      waitUntil(`message ${n} of the answer to /fundbot ${name}`, () => messages()[n], {
        timeoutMs: timeoutMs,
      });
    return {
      sentAt,
      answer: (timeoutMs) => message(0, timeoutMs),
      message,
      messages,
      acknowledgedWithinMs: () => acknowledged,
    };
  }

  function posts(): ChannelPost[] {
    stamp();
    const all: (ChannelPost & { at: number })[] = [];
    const calls = fake.callsTo('chat.postMessage').filter((c) => c.outcome === 'ok');
    for (const [channel, messages] of fake.messages) {
      // The fake appends the message and records the call in one step: the nth of each belong together.
      const channelCalls = calls.filter((c) => c.args['channel'] === channel);
      messages
        .filter((m) => m.bot_id !== undefined)
        .forEach((m, i) => {
          const call = channelCalls[i];
          // The message's own blocks: a post Slack landed late has no 'ok' call to pair with.
          const blocks = m.blocks ?? call?.args['blocks'];
          all.push({
            id: m.ts,
            channel,
            ...(m.thread_ts ? { threadOf: m.thread_ts } : {}),
            text: visibleOf(blocks),
            raw: [...blockStrings(blocks), fallback(m.text)],
            files: [],
            shape: 'blocks',
            ...(typeof m.metadata?.event_payload['event_id'] === 'string'
              ? { deliveryKey: m.metadata.event_payload['event_id'] }
              : {}),
            at: call ? at(call) : 0,
          });
        });
    }
    for (const share of shares()) {
      const message = shareMessage(share.call, share.files, at(share.call));
      const thread = share.call.args['thread_ts'];
      all.push({
        id: `file-share-${fake.calls.indexOf(share.call)}`,
        channel: String(share.call.args['channel_id']),
        ...(typeof thread === 'string' ? { threadOf: thread } : {}),
        text: message.text,
        raw: message.raw,
        files: message.files,
        shape: 'file',
        at: message.at,
      });
    }
    return all.sort((a, b) => a.at - b.at);
  }

  function edits(): ChannelEdit[] {
    return fake.callsTo('chat.update').map((call) => {
      const blocks = call.args['blocks'];
      return {
        channel: String(call.args['channel']),
        id: String(call.args['ts']),
        text: visibleOf(blocks),
        raw: [...blockStrings(blocks), fallback(call.args['text'])],
      };
    });
  }

  return {
    platform: 'slack',
    mode: mode === 'socket' ? 'Slack Socket Mode' : 'Slack HTTP',
    channel: channels.main,
    otherChannel: channels.other,
    lockedChannel: channels.locked,
    secrets: [botToken, appToken, signingSecret],
    async configSection() {
      if (mode === 'socket') return { slack: { enabled: true, mode: 'socket', apiUrl: fake.apiUrl } };
      port = await freePort();
      return { slack: { enabled: true, mode: 'http', port } };
    },
    env: () =>
      mode === 'socket'
        ? { SLACK_BOT_TOKEN: botToken, SLACK_APP_TOKEN: appToken }
        : { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret, SLACK_API_URL: fake.apiUrl },
    async connected(bot: BotProcess) {
      await bot.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      // HTTP mode: the app's message events are signed POSTs to its request URL.
      if (mode === 'http')
        fake.subscribeMessageEvents({
          via: 'http',
          urls: [`http://127.0.0.1:${port}/slack/events`],
          signingSecret,
        });
      if (mode === 'socket')
        await waitUntil('a Socket Mode connection', () => fake.socketConnections > 0, { timeoutMs: 10_000 });
    },
    command,
    posts,
    edits,
    answerNextPostLate(lateMs) {
      fake.fail('chat.postMessage', lateAnswer(lateMs), 1, channels.main);
      const armedAt = Date.now();
      const call = () =>
        fake.callsTo('chat.postMessage').find((c) => c.at >= armedAt && c.outcome.startsWith('answer after'));
      return {
        landed: () => {
          const taken = call();
          return taken !== undefined && Date.now() >= taken.at + lateMs + 500;
        },
        done: () => {},
      };
    },
    recordedText: () =>
      JSON.stringify([fake.calls.map((c) => ({ method: c.method, args: c.args })), fake.responses]),
    async close() {
      clearInterval(stamper);
      await fake.close();
    },
    fake,
  };
}

/** A shared file's message: its blocks (rich text beside the file), or the older `initial_comment` mrkdwn. */
function shareMessage(call: RecordedCall, files: Uint8Array[], at: number): AnswerMessage {
  const blocks = call.args['blocks'];
  if (Array.isArray(blocks)) {
    return { visibility: 'public', text: visibleOf(blocks), raw: blockStrings(blocks), files, at };
  }
  const comment = String(call.args['initial_comment'] ?? '');
  return {
    visibility: 'public',
    text: slackVisibleMrkdwn(comment),
    raw: [{ text: comment, parsed: true }],
    files,
    at,
  };
}

/** The notification text: Slack parses it like mrkdwn. */
function fallback(text: unknown): RenderedText {
  return { text: typeof text === 'string' ? text : '', parsed: true, notification: true };
}

/** Every text of a message's blocks, with whether Slack reads it as mrkdwn. */
function blockStrings(blocks: unknown): RenderedText[] {
  const out: RenderedText[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record['type'] === 'rich_text') {
      out.push(...richTextStrings(record['elements']));
      return;
    }
    if (
      (record['type'] === 'plain_text' || record['type'] === 'mrkdwn') &&
      typeof record['text'] === 'string'
    ) {
      out.push({ text: record['text'], parsed: record['type'] === 'mrkdwn' });
      return;
    }
    for (const value of Object.values(record)) visit(value);
  };
  visit(blocks);
  return out;
}

/**
 * A `rich_text` block as a reader sees it: sections as lines, list items with bullets. Its text elements are
 * literal (never parsed); a mention or broadcast element is a real ping, so it is kept as the parsed `<!…>`/`<@…>`
 * form the security checks look for.
 */
function richTextStrings(elements: unknown): RenderedText[] {
  const pings: RenderedText[] = [];
  const inline = (element: Record<string, unknown>): string => {
    switch (element['type']) {
      case 'text': {
        const text = typeof element['text'] === 'string' ? element['text'] : '';
        // Struck text is drawn struck: written here as mrkdwn's ~…~ so a step can see it.
        const style = element['style'] as Record<string, unknown> | undefined;
        return style?.['strike'] === true ? `~${text}~` : text;
      }
      case 'link':
        return typeof element['text'] === 'string' ? element['text'] : String(element['url'] ?? '');
      case 'emoji':
        return typeof element['unicode'] === 'string'
          ? String.fromCodePoint(...element['unicode'].split('-').map((hex) => Number.parseInt(hex, 16)))
          : `:${String(element['name'])}:`;
      case 'broadcast':
        pings.push({ text: `<!${String(element['range'])}>`, parsed: true });
        return `@${String(element['range'])}`;
      case 'user':
      case 'usergroup':
        pings.push({ text: `<@${String(element['user_id'] ?? element['usergroup_id'])}>`, parsed: true });
        return '@someone';
      default:
        return '';
    }
  };
  const line = (section: Record<string, unknown>): string =>
    Array.isArray(section['elements'])
      ? (section['elements'] as Record<string, unknown>[]).map(inline).join('')
      : '';
  const lines = (Array.isArray(elements) ? (elements as Record<string, unknown>[]) : []).map((element) =>
    element['type'] === 'rich_text_list' && Array.isArray(element['elements'])
      ? (element['elements'] as Record<string, unknown>[]).map((item) => `• ${line(item)}`).join('\n')
      : line(element),
  );
  return [{ text: lines.join('\n'), parsed: false }, ...pings];
}

function visibleOf(blocks: unknown): string {
  return blockStrings(blocks)
    .map((s) => (s.parsed ? slackVisibleMrkdwn(s.text) : slackVisiblePlain(s.text)))
    .join('\n');
}

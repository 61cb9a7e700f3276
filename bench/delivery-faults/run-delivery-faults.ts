/**
 * `deliveryFaults` in `npm run bench`: the REAL bot (`src/main.ts`, its own process, on the default SQLite
 * store) runs a compressed campaign on the real clock against the simulator, posting every supporter live into
 * one Slack channel (the Slack fake, HTTP mode) and one Discord channel (the Discord fake, HTTP interactions
 * mode), while the platforms misbehave on a schedule: Slack 500 bursts (3, then 6 in a row), a Discord 500 burst,
 * 429s with Retry-After on both, Slack answers that never come (the post landed; the client times out), the bot
 * removed from the Slack channel and invited back a minute later, and the bot SIGKILLed while a post is in the
 * air (then started again). Everything is judged from outside (score.ts): the supporters added, each with a
 * unique name, against the messages the fakes stored and the requests they received; the store cost is read
 * from the bot's /metrics.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../src/simulator/index.js';
import { channelFaults, type FakeDiscord, startFakeDiscord } from '../../test/fakes/discord/fake-discord.js';
import { signedInteractions } from '../../test/fakes/discord/signed-interactions.js';
import { type FakeSlack, startFakeSlack } from '../../test/fakes/slack/fake-slack.js';
import { freePort } from '../../test/support/redis-server.js';
import { writeLaunchBotConfig } from '../launch-bot-config.js';
import { type ReplicaProcess, startReplicaProcess } from '../replicas/replica-process.js';
import type { BenchSection, Figures } from '../section.js';
import { runSlackAdminCommands } from '../slack-admin-commands.js';
import { waitUntil } from '../wait-until.js';
import {
  type Arrival,
  fanName,
  type LandedMessage,
  latencySummary,
  maxChannelStallMs,
  namesIn,
  type PostAttempt,
  scoreChannel,
} from './score.js';

const slackChannel = 'C0LAUNCH';
const discordChannel = '200000000000000001';
const arrivalEveryMs = 1_200;
const arrivalsForMs = 270_000;
const botToken = 'xoxb-bench-delivery';
const signingSecret = 'bench-delivery-signing-secret';
/** Discord's Manage Server permission: /subscribe and /pacing are admin commands. */
const manageGuild = 1n << 5n;

const log = (message: string) =>
  process.stderr.write(`bench:deliveryFaults ${new Date().toISOString().slice(11, 19)} ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  waitUntil(what, check, { timeoutMs, log });

/** The delivery pipeline's store operations so far, from the bot's /metrics. */
async function storeOperations(bot: ReplicaProcess): Promise<{ reads: number; writes: number }> {
  const text = await (await fetch(`${bot.opsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  const value = (operation: string) =>
    Number(
      new RegExp(`^fundbot_delivery_store_operations_total\\{operation="${operation}"\\} (\\d+)`, 'm').exec(
        text,
      )?.[1] ?? 0,
    );
  return { reads: value('read'), writes: value('write') };
}

export async function runDeliveryFaults(): Promise<Figures> {
  const started = Date.now();
  const sim = await startSimulator({
    seed: 21,
    projects: [{ linkCaption: 'launch', title: 'Launch', currency: 'EUR' }],
    // A minute budget that polls the supporters every second or two: the figures are about delivery, not polling.
    limits: { pro: { perMinute: 180, perDay: 1_000_000 } },
  });
  const slack = await startFakeSlack({
    botToken,
    historyIntervalMs: 60_000,
    users: [{ id: 'U0ADMIN', team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const discord = await startFakeDiscord();
  const signed = signedInteractions(discord);
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-delivery-faults-'));
  const [opsPort, slackPort, discordPort] = [await freePort(), await freePort(), await freePort()];
  const configPath = writeLaunchBotConfig({
    dir,
    simUrl: sim.url,
    slackPort,
    opsPort,
    extra: {
      discord: { enabled: true, mode: 'http', applicationId: discord.applicationId, port: discordPort },
      engine: { publicReads: false },
    },
  });
  const env = {
    LAUNCH_API_KEY: sim.issueProjectKey('launch'),
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_PUBLIC_KEY: signed.publicKeyHex,
    DISCORD_API_URL: discord.apiUrl,
  };
  const startBot = () =>
    startReplicaProcess({ name: 'bot', configPath, opsPort, env, logPath: join(dir, 'bot.log') });
  let bot = await startBot();
  const arrivals: Arrival[] = [];
  let arrivalTimer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  let keep = process.argv.includes('--keep-logs');
  try {
    await adminCommands(slack, slackPort, signed, discordPort);
    const subscribedAt = Date.now();
    await until('a fundings poll after the subscriptions', () =>
      sim.requests.some((r) => r.at > subscribedAt + 1_000 && r.path.endsWith('/fundings')),
    );
    log(`bot running, channels subscribed after ${Math.round((Date.now() - started) / 1000)} s`);

    const t0 = Date.now();
    let n = 0;
    arrivalTimer = setInterval(() => {
      n += 1;
      const name = fanName(n);
      sim.project('launch').addSupporter({ displayName: name });
      arrivals.push({ name, at: Date.now() });
    }, arrivalEveryMs);
    const at = (ms: number, what: string, action: () => void | Promise<void>) =>
      timers.push(
        setTimeout(() => {
          log(what);
          void Promise.resolve(action()).catch((error: unknown) => log(`${what} failed: ${String(error)}`));
        }, ms),
      );
    at(20_000, 'Slack: three 500s', () => slack.fail('chat.postMessage', { status: 500 }, 3));
    at(45_000, 'Slack: six 500s', () => slack.fail('chat.postMessage', { status: 500 }, 6));
    at(70_000, 'Discord: 500s for 5 s', () => discord.failChannel(discordChannel, channelFaults.serverError));
    at(75_000, 'Discord: healed', () => discord.failChannel(discordChannel, undefined));
    at(95_000, 'Slack and Discord: 429 with Retry-After', () => {
      slack.fail('chat.postMessage', { status: 429, retryAfterSeconds: 5 }, 1);
      discord.faultMessages({ rateLimit: { retryAfterMs: 3_000 } }, 1);
    });
    at(120_000, 'Slack: two answers never come (the posts landed)', () =>
      slack.fail('chat.postMessage', { afterPost: 'hang' }, 2),
    );
    const removedAt = t0 + 150_000;
    at(150_000, 'Slack: the bot is removed from the channel (not_in_channel)', () => {
      slack.setChannel({ id: slackChannel, isMember: false });
      slack.fail('chat.postMessage', { error: 'not_in_channel' }, 1_000_000);
    });
    const invitedAt = t0 + 205_000;
    at(205_000, 'Slack: the bot is invited back', () => {
      slack.setChannel({ id: slackChannel, isMember: true });
      slack.clearFailures();
    });
    await sleep(235_000);
    // A post in the air when the process dies: it lands, the answer never comes, the bot is SIGKILLed.
    const callsBefore = slack.callsTo('chat.postMessage').length;
    slack.fail('chat.postMessage', { afterPost: 'hang' }, 1);
    await until('a post in the air', () => slack.callsTo('chat.postMessage').length > callsBefore, 30_000);
    const opsBeforeKill = await storeOperations(bot);
    bot.child.kill('SIGKILL');
    log('the bot is SIGKILLed with a post in the air; started again in 2 s');
    await sleep(2_000);
    bot = await startBot();
    await sleep(Math.max(0, t0 + arrivalsForMs - Date.now()));
    clearInterval(arrivalTimer);
    arrivalTimer = undefined;
    const lastArrival = Date.now();
    const landed = () => ({ slack: slackLanded(slack), discord: discordLanded(discord) });
    await until(
      'every supporter named in both channels',
      () => {
        const now = landed();
        return (
          scoreChannel(arrivals, now.slack).misses === 0 && scoreChannel(arrivals, now.discord).misses === 0
        );
      },
      120_000,
    );
    const opsAfter = await storeOperations(bot);
    const { slack: slackMessages, discord: discordMessages } = landed();
    const slackScore = scoreChannel(arrivals, slackMessages);
    const discordScore = scoreChannel(arrivals, discordMessages);
    // Held while the bot was not in the Slack channel: posted as a catch-up once it was back (latency apart).
    const heldName = new Set(
      arrivals.filter((a) => a.at >= removedAt - 5_000 && a.at < invitedAt).map((a) => a.name),
    );
    const slackLive = scoreChannel(
      arrivals.filter((a) => !heldName.has(a.name)),
      slackMessages,
    );
    const slackHeld = scoreChannel(
      arrivals.filter((a) => heldName.has(a.name)),
      slackMessages,
    );
    // A notice is one supporter announced in one channel (what the outbox hands over); a catch-up message carries many.
    const notices = arrivals.length * 2 - slackScore.misses - discordScore.misses;
    const messages = slackMessages.length + discordMessages.length;
    const operations = {
      reads: opsBeforeKill.reads + opsAfter.reads,
      writes: opsBeforeKill.writes + opsAfter.writes,
    };
    const figures = {
      duplicates: slackScore.duplicates + discordScore.duplicates,
      misses: slackScore.misses + discordScore.misses,
      latencyMs: latencySummary([...slackLive.latenciesMs, ...discordScore.latenciesMs]),
      maxChannelStallMs: Math.max(
        maxChannelStallMs(slackAttempts(slack), slackMessages, arrivals),
        maxChannelStallMs(discordAttempts(discord, t0), discordMessages, arrivals),
      ),
      unnamedSupporters: slackScore.unnamedSupporters + discordScore.unnamedSupporters,
      storeReadsPerNotice: round(operations.reads / Math.max(1, notices)),
      storeWritesPerNotice: round(operations.writes / Math.max(1, notices)),
    };
    const details = {
      supporters: arrivals.length,
      messages: { slack: slackMessages.length, discord: discordMessages.length },
      storePerMessage: {
        reads: round(operations.reads / Math.max(1, messages)),
        writes: round(operations.writes / Math.max(1, messages)),
      },
      catchUpLatencyMs: latencySummary(slackHeld.latenciesMs),
      lastNoticeAfterLastArrivalMs: Date.now() - lastArrival,
      missed: [
        ...slackScore.missedNames.map((x) => `slack ${x}`),
        ...discordScore.missedNames.map((x) => `discord ${x}`),
      ].slice(0, 10),
      wallSeconds: Math.round((Date.now() - started) / 1000),
    };
    keep ||= figures.duplicates > 0 || figures.misses > 0;
    // What the channels hold, kept beside the bot's log to read a duplicate or a miss.
    if (keep)
      writeFileSync(join(dir, 'landed.json'), JSON.stringify({ slackMessages, discordMessages, arrivals }));
    log(JSON.stringify({ ...figures, details }));
    return { deliveryFaults: { ...figures, details } };
  } catch (error) {
    keep = true;
    log(`--- bot log tail ---\n${bot.output().slice(-4_000)}`);
    throw error;
  } finally {
    if (arrivalTimer) clearInterval(arrivalTimer);
    for (const timer of timers) clearTimeout(timer);
    await bot.stop();
    await slack.close();
    await discord.close();
    await sim.close();
    if (keep) log(`bot log and store kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The admin subscribes both channels to supporter notices and paces them live, with the real commands. */
async function adminCommands(
  slack: FakeSlack,
  slackPort: number,
  signed: ReturnType<typeof signedInteractions>,
  discordPort: number,
): Promise<void> {
  await runSlackAdminCommands({
    slack,
    port: slackPort,
    signingSecret,
    channel: slackChannel,
    userId: 'U0ADMIN',
    texts: ['subscribe launch supporters', 'pacing supporters live'],
    log,
  });
  const url = `http://127.0.0.1:${discordPort}/discord/interactions`;
  for (const [command, options] of [
    [
      'subscribe',
      [
        { name: 'project', value: 'launch' },
        { name: 'kinds', value: 'supporters' },
      ],
    ],
    [
      'pacing',
      [
        { name: 'kind', value: 'supporters' },
        { name: 'mode', value: 'live' },
      ],
    ],
  ] as const) {
    const answer = await signed.post(url, signed.chatInput({ command, options, permissions: manageGuild }));
    if (answer.status !== 200) throw new Error(`Discord /${command}: HTTP ${answer.status}`);
  }
}

function slackLanded(slack: FakeSlack): LandedMessage[] {
  return (slack.messages.get(slackChannel) ?? []).map((m) => ({
    at: Number(m.ts) * 1000,
    text: [m.text, ...textsOf(m.blocks)].join('\n'),
  }));
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

function discordLanded(discord: FakeDiscord): LandedMessage[] {
  const messages: LandedMessage[] = [];
  for (const list of discord.channelMessages.values()) {
    for (const m of list) {
      const embed = (m['embeds'] as { title?: string; description?: string }[] | undefined)?.[0];
      const id = BigInt(String(m['id']));
      messages.push({
        at: Number((id >> 22n) + 1_420_070_400_000n),
        text: `${embed?.title ?? ''}\n${embed?.description ?? ''}`,
      });
    }
  }
  return messages;
}

function slackAttempts(slack: FakeSlack): PostAttempt[] {
  return slack.callsTo('chat.postMessage').map((call) => ({
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

/** Create Message requests in the channel; those inside the fault window (or the one 429) were refused. */
function discordAttempts(discord: FakeDiscord, t0: number): PostAttempt[] {
  const attempts: PostAttempt[] = [];
  discord.requests.forEach((request, i) => {
    if (request.method !== 'POST' || request.path !== `/channels/${discordChannel}/messages`) return;
    const at = discord.requestTimes[i] ?? 0;
    const inFault = at >= t0 + 70_000 && at < t0 + 75_000;
    const embed = (request.body as { embeds?: { title?: string; description?: string }[] }).embeds?.[0];
    attempts.push({
      at,
      outcome: inFault ? 'fault' : 'ok',
      names: namesIn(`${embed?.title ?? ''} ${embed?.description ?? ''}`),
    });
  });
  return attempts;
}

const round = (value: number) => Math.round(value * 100) / 100;

export const deliveryFaultsSection: BenchSection = { name: 'delivery-faults', run: runDeliveryFaults };

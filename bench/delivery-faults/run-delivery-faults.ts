/**
 * `deliveryFaults` in `npm run bench`: the REAL bot (`src/main.ts`, its own process, on the default SQLite
 * store) runs a compressed campaign on the real clock against the simulator, posting every supporter live into
 * one Slack channel (the Slack fake, HTTP mode) and one Discord channel (the Discord fake, HTTP interactions
 * mode), while the platforms misbehave on a schedule: Slack 500 bursts (3, then 6 in a row), a Discord 500 burst,
 * 429s with Retry-After on both, Slack answers that never come (the post landed; the client times out), the bot
 * removed from the Slack channel and invited back a minute later, and the bot SIGKILLed while a post is in the
 * air (then started again). Issue 29 adds a third channel, Slack in one-minute batches, and posts the platforms
 * take but answer and land late, 25 to 90 s after they were sent, on Slack live notices and batches and on
 * Discord (late-answers.ts); Slack sends the bot its message events (Events API over HTTP, signed), Discord's
 * nonce window is short. Everything is judged from outside (score.ts, landed.ts): the supporters added, each
 * with a unique name, against the messages the fakes stored (and removed, with when) and the requests they
 * received; the store cost is read from the bot's /metrics.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../src/simulator/index.js';
import { channelFaults, startFakeDiscord } from '../../test/fakes/discord/fake-discord.js';
import { signedInteractions } from '../../test/fakes/discord/signed-interactions.js';
import { type FakeSlack, startFakeSlack } from '../../test/fakes/slack/fake-slack.js';
import { freePort } from '../../test/support/redis-server.js';
import { writeLaunchBotConfig } from '../launch-bot-config.js';
import { type ReplicaProcess, startReplicaProcess } from '../replicas/replica-process.js';
import type { BenchSection, Figures } from '../section.js';
import { runSlackAdminCommands } from '../slack-admin-commands.js';
import { waitUntil } from '../wait-until.js';
import {
  discordAttempts,
  discordLanded,
  discordShownOverRun,
  slackAttempts,
  slackLanded,
  slackShownOverRun,
} from './landed.js';
import {
  armLateAnswer,
  benchNonceWindowMs,
  lateAnswerFigures,
  lateArmings,
  lateLandingsOverMs,
} from './late-answers.js';
import { type Arrival, fanName, latencySummary, maxChannelStallMs, scoreChannel } from './score.js';

const slackChannel = 'C0LAUNCH';
/** Supporters in one-minute batches: the late answers on batch posts. */
const slackBatchChannel = 'C0BATCH';
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
  const discord = await startFakeDiscord({ nonceWindowMs: benchNonceWindowMs });
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
  // The bot's own messages come back as Slack message events (message.channels), signed, to its request URL.
  slack.subscribeMessageEvents({
    via: 'http',
    urls: [`http://127.0.0.1:${slackPort}/slack/events`],
    signingSecret,
  });
  const arrivals: Arrival[] = [];
  const discordLateArmedAt: number[] = [];
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
    // The scripted faults hit the live channel (the batch channel gets its own, late-answers.ts).
    const onLive = (failure: Parameters<FakeSlack['fail']>[1], times: number) =>
      slack.fail('chat.postMessage', failure, times, slackChannel);
    at(20_000, 'Slack: three 500s', () => onLive({ status: 500 }, 3));
    at(45_000, 'Slack: six 500s', () => onLive({ status: 500 }, 6));
    at(70_000, 'Discord: 500s for 5 s', () => discord.failChannel(discordChannel, channelFaults.serverError));
    at(75_000, 'Discord: healed', () => discord.failChannel(discordChannel, undefined));
    at(95_000, 'Slack and Discord: 429 with Retry-After', () => {
      onLive({ status: 429, retryAfterSeconds: 5 }, 1);
      discord.faultMessages({ rateLimit: { retryAfterMs: 3_000 } }, 1);
    });
    at(120_000, 'Slack: two answers never come (the posts landed)', () => onLive({ afterPost: 'hang' }, 2));
    const removedAt = t0 + 150_000;
    at(150_000, 'Slack: the bot is removed from the channel (not_in_channel)', () => {
      slack.setChannel({ id: slackChannel, isMember: false });
      onLive({ error: 'not_in_channel' }, 1_000_000);
    });
    const invitedAt = t0 + 205_000;
    at(205_000, 'Slack: the bot is invited back', () => {
      slack.setChannel({ id: slackChannel, isMember: true });
      onLive({ status: 500 }, 0);
    });
    const lateTarget = { slack, discord, slackLive: slackChannel, slackBatch: slackBatchChannel };
    for (const arming of lateArmings)
      at(
        arming.atMs,
        `${arming.where}: the next post is answered and lands ${arming.lateMs / 1000} s late`,
        () => {
          if (arming.where === 'discord-live') discordLateArmedAt.push(Date.now());
          armLateAnswer(lateTarget, arming);
        },
      );
    await sleep(235_000);
    // A post in the air when the process dies: it lands, the answer never comes, the bot is SIGKILLed.
    const callsBefore = slack.callsTo('chat.postMessage').length;
    onLive({ afterPost: 'hang' }, 1);
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
    const landed = () => ({
      slack: slackLanded(slack, slackChannel),
      batch: slackLanded(slack, slackBatchChannel),
      discord: discordLanded(discord),
    });
    await until(
      'every supporter named in the three channels, and every late post landed',
      () => {
        const now = landed();
        return (
          Date.now() >= t0 + lateLandingsOverMs &&
          [now.slack, now.batch, now.discord].every((m) => scoreChannel(arrivals, m).misses === 0)
        );
      },
      lateLandingsOverMs + 120_000,
    );
    const opsAfter = await storeOperations(bot);
    const { slack: slackMessages, batch: batchMessages, discord: discordMessages } = landed();
    const slackScore = scoreChannel(arrivals, slackMessages);
    const batchScore = scoreChannel(arrivals, batchMessages);
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
    // A notice is one supporter announced in one channel (what the outbox hands over); a batch carries many.
    const notices = arrivals.length * 3 - slackScore.misses - batchScore.misses - discordScore.misses;
    const messages = slackMessages.length + batchMessages.length + discordMessages.length;
    const operations = {
      reads: opsBeforeKill.reads + opsAfter.reads,
      writes: opsBeforeKill.writes + opsAfter.writes,
    };
    const late = lateAnswerFigures(
      [
        slackShownOverRun(slack, slackChannel),
        slackShownOverRun(slack, slackBatchChannel),
        discordShownOverRun(discord),
      ],
      Date.now(),
      slack.deleted.length + discord.deletedMessages.length,
    );
    const figures = {
      duplicates: slackScore.duplicates + batchScore.duplicates + discordScore.duplicates,
      misses: slackScore.misses + batchScore.misses + discordScore.misses,
      latencyMs: latencySummary([...slackLive.latenciesMs, ...discordScore.latenciesMs]),
      maxChannelStallMs: Math.max(
        maxChannelStallMs(slackAttempts(slack, slackChannel), slackMessages, arrivals),
        maxChannelStallMs(
          discordAttempts(
            discord,
            discordChannel,
            { from: t0 + 70_000, to: t0 + 75_000 },
            discordLateArmedAt,
          ),
          discordMessages,
          arrivals,
        ),
      ),
      unnamedSupporters:
        slackScore.unnamedSupporters + batchScore.unnamedSupporters + discordScore.unnamedSupporters,
      storeReadsPerNotice: round(operations.reads / Math.max(1, notices)),
      storeWritesPerNotice: round(operations.writes / Math.max(1, notices)),
      lateAnswers: late,
    };
    const details = {
      supporters: arrivals.length,
      messages: { slack: slackMessages.length, batch: batchMessages.length, discord: discordMessages.length },
      batchLatencyMs: latencySummary(batchScore.latenciesMs),
      messageEvents: slack.messageEvents.length,
      storePerMessage: {
        reads: round(operations.reads / Math.max(1, messages)),
        writes: round(operations.writes / Math.max(1, messages)),
      },
      catchUpLatencyMs: latencySummary(slackHeld.latenciesMs),
      lastNoticeAfterLastArrivalMs: Date.now() - lastArrival,
      missed: [
        ...slackScore.missedNames.map((x) => `slack ${x}`),
        ...batchScore.missedNames.map((x) => `batch ${x}`),
        ...discordScore.missedNames.map((x) => `discord ${x}`),
      ].slice(0, 10),
      wallSeconds: Math.round((Date.now() - started) / 1000),
    };
    keep ||= figures.duplicates > 0 || figures.misses > 0 || late.duplicates > 0;
    // What the channels hold, kept beside the bot's log to read a duplicate or a miss.
    if (keep)
      writeFileSync(
        join(dir, 'landed.json'),
        JSON.stringify({
          slackMessages,
          batchMessages,
          discordMessages,
          arrivals,
          deleted: slack.deleted,
          events: slack.messageEvents,
        }),
      );
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
  await runSlackAdminCommands({
    slack,
    port: slackPort,
    signingSecret,
    channel: slackBatchChannel,
    userId: 'U0ADMIN',
    texts: ['subscribe launch supporters', 'pacing supporters batched 1'],
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

const round = (value: number) => Math.round(value * 100) / 100;

export const deliveryFaultsSection: BenchSection = { name: 'delivery-faults', run: runDeliveryFaults };

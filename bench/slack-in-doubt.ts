/**
 * Bench section: a launch day of notices into Slack with the answers to posts lost.
 *
 * The REAL Slack adapter's poster (the Web API client) and the REAL notice router
 * deliver a day of supporter notices, in order like the outbox, into two channels
 * of the fake Slack (test/fakes/slack, which enforces conversations.history's
 * 1-a-minute limit), on a virtual clock. A share of the posts is faulted the ways
 * Slack loses answers: the post lands and the answer hangs until the client times
 * out, the connection drops, the server is killed mid-request (and the bot
 * restarts: a new poster and router on the same store), or the request hangs and
 * nothing lands; some answers are merely slow. Failed deliveries are retried on
 * the outbox's backoff. Figures:
 * - slackInDoubt: deliveries that went into doubt (each resolved by a look);
 * - slackDuplicates: event ids in a channel more than once (target 0);
 * - slackMisses: (event, channel) pairs never posted (target 0);
 * - details: history looks, 429s, fault counts, doubt-to-resolution time.
 *
 * Wall time stays low: a "hang" costs the client's timeout (here 100 ms of real
 * time), everything else runs on the virtual clock.
 */
import { createSlackAdapter } from '../src/adapters/slack/index.js';
import { type ChannelRef, createSubscriptionStore } from '../src/core/index.js';
import { createNoticeRouter, type NoticeRouter } from '../src/delivery/index.js';
import type { FundbotEvent } from '../src/domain/events.js';
import { backoffMs } from '../src/lib/backoff.js';
import { seededRandom } from '../src/lib/random.js';
import { memoryStore } from '../src/lib/store.js';
import { type FakeSlackFailure, startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { ManualClock } from '../test/support/manual-clock.js';
import type { BenchSection, Figures } from './section.js';
import { summarize } from './stats.js';

const EVENTS = 160;
const FAULT_RATE = 0.16;
const DAY_MS = 86_400_000;
const POST_TIMEOUT_MS = 100;
const channels: ChannelRef[] = ['C0LAUNCH', 'C0TEAM'].map((channelId) => ({
  platform: 'slack',
  workspaceId: 'T0FAKE',
  channelId,
}));
/** The outbox's delivery backoff (src/engine: 5 s doubling to 10 minutes, spread). */
const outboxBackoff = { baseMs: 5_000, maxMs: 600_000, jitter: 'spread' } as const;

type Fault = FakeSlackFailure & ({ afterPost: string } | { beforePost: string });
const faults: readonly Fault[] = [
  { afterPost: 'hang' },
  { afterPost: 'drop' },
  { afterPost: 'kill' },
  { beforePost: 'hang' },
  { afterPost: 'slow', delayMs: POST_TIMEOUT_MS / 4 },
];

async function runDay(): Promise<Figures> {
  const random = seededRandom(13);
  const start = Date.UTC(2026, 2, 2, 7);
  const clock = new ManualClock(start);
  const fake = await startFakeSlack({
    botToken: 'xoxb-bench',
    now: () => clock.now(),
    historyIntervalMs: 60_000,
  });
  const store = memoryStore();
  const subscriptions = createSubscriptionStore(store, { clock });
  for (const channel of channels) await subscriptions.subscribe(channel, 'launch', ['supporters'], 'U0ADMIN');
  const doubtStarted = new Map<string, number>();
  const resolutionMs: number[] = [];
  let inDoubt = 0;
  let restarts = 0;
  const injected: Record<string, number> = {};

  let stopAdapter: () => Promise<void> = async () => {};
  const startBot = (): NoticeRouter => {
    const adapter = createSlackAdapter({
      mode: 'http',
      botToken: 'xoxb-bench',
      signingSecret: 'bench',
      core: {
        execute: async () => ({ text: '' }),
        autocomplete: async () => [],
        renderNotice: () => ({ text: '' }),
        localeFor: async () => 'en',
        timeZoneFor: async () => 'UTC',
      },
      apiUrl: fake.apiUrl,
      clock,
      postTimeoutMs: POST_TIMEOUT_MS,
      logger: { debug() {}, info() {}, warn() {}, error() {}, child: () => silent },
    });
    stopAdapter = () => adapter.stop();
    return createNoticeRouter({
      core: {
        renderNotice: (event) => ({ title: 'New supporter', text: event.id }),
        localeFor: async () => 'en',
        timeZoneFor: async () => 'UTC',
      },
      subscriptions,
      posters: [adapter.poster],
      store,
      clock,
      onDoubtResolved: (event, channel) => {
        inDoubt += 1;
        const key = `${event.id}@${channel.channelId}`;
        resolutionMs.push(clock.now() - (doubtStarted.get(key) ?? clock.now()));
      },
    });
  };
  const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
  let router = startBot();

  for (let i = 0; i < EVENTS; i += 1) {
    // Launch-day shape: most supporters early in the day.
    clock.set(start + Math.floor(DAY_MS * (i / EVENTS) ** 2));
    const event: FundbotEvent = {
      id: `fundings:${i}`,
      project: 'launch',
      occurredAt: clock.now(),
      detectedAt: clock.now(),
      type: 'supporter',
      displayName: `Supporter ${i}`,
      supporterCount: i + 1,
      fundingTotal: 1_000 + i * 25,
      currency: 'EUR',
    };
    // Faults hit the first posts of this event (one per channel at most).
    let faultsLeft = 0;
    if (random.next() < FAULT_RATE) {
      const fault = faults[Math.floor(random.next() * faults.length)] as Fault;
      faultsLeft = 1 + Math.floor(random.next() * channels.length);
      fake.fail('chat.postMessage', fault, faultsLeft);
      const name = 'afterPost' in fault ? `afterPost:${fault.afterPost}` : `beforePost:${fault.beforePost}`;
      injected[name] = (injected[name] ?? 0) + faultsLeft;
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        await router.deliver(event);
        break;
      } catch {
        for (const c of channels)
          doubtStarted.set(
            `${event.id}@${c.channelId}`,
            doubtStarted.get(`${event.id}@${c.channelId}`) ?? clock.now(),
          );
        const kills = fake.calls.filter((c) => c.outcome === 'posted, then kill').length;
        if (kills > restarts) {
          // The server died mid-request; it comes back, and the bot restarts from its store.
          await fake.restart();
          await stopAdapter();
          router = startBot();
          restarts += 1;
        }
        if (attempt > 60) throw new Error(`bench: ${event.id} was never delivered`);
        clock.advance(backoffMs(outboxBackoff, attempt, () => random.next()));
      }
    }
    fake.clearFailures();
  }
  await stopAdapter();

  let duplicates = 0;
  let misses = 0;
  for (const c of channels) {
    duplicates += fake.duplicateEventIds(c.channelId).length;
    const posted = new Set(
      (fake.messages.get(c.channelId) ?? []).map((m) => m.metadata?.event_payload['event_id']),
    );
    for (let i = 0; i < EVENTS; i += 1)
      if (!posted.has(`fundings:${i}@slack:T0FAKE:${c.channelId}`)) misses += 1;
  }
  const history = fake.callsTo('conversations.history');
  const figures: Figures = {
    slackInDoubt: inDoubt,
    slackDuplicates: duplicates,
    slackMisses: misses,
    details: {
      slackDay: {
        deliveries: EVENTS * channels.length,
        faultsInjected: injected,
        restarts,
        historyLooks: history.length,
        history429: history.filter((c) => c.outcome === 'http 429').length,
        doubtResolvedMs: summarize(resolutionMs),
      },
    },
  };
  await fake.close();
  return figures;
}

export const slackInDoubtSection: BenchSection = { name: 'slack-in-doubt', run: runDay };

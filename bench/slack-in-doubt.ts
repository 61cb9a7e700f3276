/**
 * Bench section: a launch day of notices into Slack with the answers to posts lost.
 *
 * The REAL Slack adapter's poster (the Web API client) and the REAL delivery pipeline
 * deliver a day of supporter notices, offered like the outbox offers them, into two
 * channels of the fake Slack (test/fakes/slack, which enforces conversations.history's
 * 1-a-minute limit), on a virtual clock. A share of the posts is faulted the ways
 * Slack loses answers: the post lands and the answer hangs until the client times
 * out, the connection drops, the server is killed mid-request (and the bot
 * restarts: a new poster and pipeline on the same store), or the request hangs and
 * nothing lands; some answers are merely slow. Doubts are decided by the pipeline's
 * looks in the background. Figures:
 * - slackInDoubt: deliveries that went into doubt (each resolved by a look);
 * - slackDuplicates: event ids in a channel more than once (target 0);
 * - slackMisses: (event, channel) pairs never posted (target 0);
 * - details: history looks, 429s, fault counts, doubt-to-resolution time.
 *
 * Wall time stays low: a "hang" costs the client's timeout (here 100 ms of real
 * time), everything else runs on the virtual clock.
 */
import { createSlackAdapter } from '../src/adapters/slack/index.js';
import type { ChannelRef } from '../src/core/index.js';
import type { FundbotEvent } from '../src/domain/events.js';
import { seededRandom } from '../src/lib/random.js';
import { memoryStore } from '../src/lib/store.js';
import { startPipeline } from '../test/delivery/pipeline-harness.js';
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
  const resolutionMs: number[] = [];
  let inDoubt = 0;
  let restarts = 0;
  const injected: Record<string, number> = {};
  const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

  /** One process: the Slack adapter's poster and the pipeline on the shared store. */
  const startBot = async () => {
    const pipeline = await startPipeline({
      posters: [],
      clock,
      store,
      observer: {
        failed: ({ how }) => {
          if (how === 'doubt') inDoubt += 1;
        },
        doubtResolved: ({ doubtMs }) => resolutionMs.push(doubtMs),
      },
    });
    const adapter = createSlackAdapter({
      mode: 'http',
      botToken: 'xoxb-bench',
      signingSecret: 'bench',
      core: pipeline.core,
      apiUrl: fake.apiUrl,
      clock,
      postTimeoutMs: POST_TIMEOUT_MS,
      logger: silent,
    });
    pipeline.delivery.registerPoster(adapter.poster);
    return { adapter, pipeline };
  };
  let bot = await startBot();
  for (const channel of channels) {
    await bot.pipeline.subscribe(channel, ['supporters'], 'launch');
    await bot.pipeline.pacing.setKind(channel, 'supporters', { mode: 'live' });
  }

  const events: FundbotEvent[] = [];
  let done = new Set<string>();
  for (let i = 0; i < EVENTS; i += 1) {
    // Launch-day shape: most supporters early in the day.
    await bot.pipeline.advance(Math.max(0, start + Math.floor(DAY_MS * (i / EVENTS) ** 2) - clock.now()));
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
    events.push(event);
    // Faults hit the next posts (one per channel at most).
    if (random.next() < FAULT_RATE) {
      const fault = faults[Math.floor(random.next() * faults.length)] as Fault;
      const count = 1 + Math.floor(random.next() * channels.length);
      fake.fail('chat.postMessage', fault, count);
      const name = 'afterPost' in fault ? `afterPost:${fault.afterPost}` : `beforePost:${fault.beforePost}`;
      injected[name] = (injected[name] ?? 0) + count;
    }
    // The outbox offers what it still holds, oldest first.
    done = new Set([...done, ...(await bot.pipeline.offer(...events.filter((e) => !done.has(e.id))))]);
    const kills = fake.calls.filter((c) => c.outcome === 'posted, then kill').length;
    if (kills > restarts) {
      // The server died mid-request; it comes back, and the bot restarts from its store.
      await fake.restart();
      await bot.pipeline.stop();
      await bot.adapter.stop();
      bot = await startBot();
      restarts += 1;
      // The new process's engine offers its outbox at its first run.
      done = new Set([...done, ...(await bot.pipeline.offer(...events.filter((e) => !done.has(e.id))))]);
    }
  }
  // The last doubts are decided in the background, one look a minute.
  for (let i = 0; i < 30 && done.size < EVENTS; i += 1) {
    fake.clearFailures();
    await bot.pipeline.advance(60_000);
    done = new Set([...done, ...(await bot.pipeline.offer(...events.filter((e) => !done.has(e.id))))]);
  }
  await bot.pipeline.stop();
  await bot.adapter.stop();

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

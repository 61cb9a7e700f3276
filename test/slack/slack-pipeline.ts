/**
 * The real Slack adapter (its poster and channel check on the real Web API client)
 * in the real delivery pipeline, against the fake Slack: what the platform tests of
 * delivery drive. Time is a ManualClock shared by the pipeline and the fake (message
 * `ts`); the client's own timeout runs in real time.
 */
import { afterEach } from 'vitest';
import { slackLateLandingMs, unmeasuredClockMarginMs } from '../../src/adapters/slack/create-slack-poster.js';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import type { Sighting } from '../../src/delivery/index.js';
import { type AdapterPipeline, startAdapterPipeline } from '../delivery/adapter-pipeline.js';
import type { PipelineOptions } from '../delivery/pipeline-harness.js';
import { restartablePerTest } from '../delivery/restartable-process.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../fakes/slack/fake-slack.js';
import type { ManualClock } from '../support/manual-clock.js';
import { recordingCore, recordingLogger } from './helpers.js';

export const botToken = 'xoxb-1-test-bot-token';
/** How long a post is given (real time): short, so hung posts end quickly. */
export const postTimeoutMs = 300;
/** The poster's settle time: the timeout plus Slack's processing margin. */
export const settleMs = postTimeoutMs + 5_000;
/**
 * When a look can decide a doubt: settled, and past where the post can be on Slack's clock too
 * (at most the clock margin before a post measured it; less once one has).
 */
export const lookAfterMs = settleMs + unmeasuredClockMarginMs;
/**
 * When a look can prove a post absent while no message events come (no witness): past the span Slack may
 * still land it in (`slackLateLandingMs`), on Slack's clock too. A look before then can only find it.
 */
export const absentAfterMs = slackLateLandingMs + unmeasuredClockMarginMs;
/** One conversations.history (and one .replies) call a minute per workspace, enforced by the fake too. */
export const historyIntervalMs = 60_000;

export const slackChannel = (channelId: string): ChannelRef => ({
  platform: 'slack',
  workspaceId: 'T0FAKE',
  channelId,
});

/** The fake Slack on the test's clock: message times, and the waits of late landings and answers. */
export function startClockedFakeSlack(clock: ManualClock): Promise<FakeSlack> {
  return startFakeSlack({
    botToken,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    historyIntervalMs,
  });
}

export type SlackPipeline = AdapterPipeline<FakeSlack, SlackAdapter>;

/** The adapter options every pipeline test runs with: the fake's API on the test's clock, short post timeouts. */
function pipelineAdapterOptions(fake: FakeSlack, clock: ManualClock) {
  return {
    botToken,
    core: recordingCore(),
    apiUrl: fake.apiUrl,
    clock,
    postTimeoutMs,
    historyIntervalMs,
    retryPolicy: { retries: 0, minTimeout: 0, maxTimeout: 1 },
    logger: recordingLogger(),
  };
}

/** One bot process: the Slack adapter (not started: posting needs no listener) and the pipeline. */
export async function startSlackPipeline(
  fake: FakeSlack,
  options: Omit<PipelineOptions, 'posters' | 'access'> & { readonly clock: ManualClock },
): Promise<SlackPipeline> {
  const adapter = createSlackAdapter({
    ...pipelineAdapterOptions(fake, options.clock),
    mode: 'http',
    signingSecret: 'secret',
  });
  return startAdapterPipeline(fake, adapter, options);
}

type BotOptions = Omit<PipelineOptions, 'posters' | 'access' | 'clock'>;

/** One bot process against its own fake Slack on the test's clock. */
async function startSlack(clock: ManualClock, options: BotOptions = {}): Promise<SlackPipeline> {
  return startSlackPipeline(await startClockedFakeSlack(clock), { ...options, clock });
}

/**
 * For a test file whose tests each run one bot against one fake Slack: the returned
 * function starts them (on the test's clock), and both are stopped after each test.
 * `start` names the kind of bot (default: the pipeline without message events).
 */
export function slackBotPerTest(
  start: (clock: ManualClock, options?: BotOptions) => Promise<SlackPipeline> = startSlack,
): (clock: ManualClock, options?: BotOptions) => Promise<SlackPipeline> {
  let running: SlackPipeline | undefined;
  afterEach(async () => {
    await running?.stop();
    await running?.fake.close();
    running = undefined;
  });
  return async (clock, options = {}) => {
    running = await start(clock, options);
    return running;
  };
}

/** The event ids of the bot's notices in a channel (thread replies included), in the order they landed. */
export function eventIdsIn(fake: FakeSlack, channelId: string): string[] {
  return (fake.messages.get(channelId) ?? []).flatMap((m) => {
    const key = m.metadata?.event_payload['event_id'];
    return typeof key === 'string' ? [key.split('@')[0] ?? key] : [];
  });
}

/** The plain texts of a posted message's blocks (header and sections), in order. */
export function blockTexts(call: RecordedCall): string[] {
  const blocks = (call.args['blocks'] ?? []) as { text?: { text?: string } }[];
  return blocks.flatMap((b) => (typeof b.text?.text === 'string' ? [b.text.text] : []));
}

/**
 * One bot process whose Slack adapter runs in Socket Mode and hands its own message events to the pipeline
 * (`Delivery.witnessed`), against a fake subscribed to send them: the witness of src/delivery/witness.ts.
 * The fake's late landings and answers wait on the test's clock.
 */
export async function startWitnessedSlack(
  clock: ManualClock,
  options: BotOptions = {},
): Promise<SlackPipeline> {
  const fake = await startClockedFakeSlack(clock);
  let witnessed: ((sighting: Sighting) => void) | undefined;
  const adapter = createSlackAdapter({
    ...pipelineAdapterOptions(fake, clock),
    mode: 'socket',
    appToken: 'xapp-1-A0FAKE-test-app-token',
    onOwnMessage: (sighting) => witnessed?.(sighting),
  });
  const bot = await startAdapterPipeline(fake, adapter, { ...options, clock });
  witnessed = (sighting) => bot.delivery.witnessed(sighting);
  await adapter.start();
  fake.subscribeMessageEvents({ via: 'socket' });
  return bot;
}

/** One bot per test, one process at a time over one store (restartable-process.ts), against the clocked fake. */
export function restartableSlackPerTest(
  options: Omit<Parameters<typeof restartablePerTest<FakeSlack, SlackPipeline>>[0], 'startFake' | 'startBot'>,
) {
  return restartablePerTest({ ...options, startFake: startClockedFakeSlack, startBot: startSlackPipeline });
}

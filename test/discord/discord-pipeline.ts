/**
 * The real Discord adapter (discord.js logged in to the fake's gateway, its poster and
 * channel check) in the real delivery pipeline, against the fake Discord: what the
 * platform tests of delivery drive. The pipeline runs on a ManualClock; discord.js's
 * REST timeout and the fake's nonce window run in real time.
 */
import type { DiscordAdapter, DiscordAdapterOptions } from '../../src/adapters/discord/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import type { Sighting } from '../../src/delivery/index.js';
import { type AdapterPipeline, startAdapterPipeline } from '../delivery/adapter-pipeline.js';
import type { PipelineOptions } from '../delivery/pipeline-harness.js';
import { defaultGuild, type FakeDiscord, type RecordedRequest } from '../fakes/discord/fake-discord.js';
import { botRoleId } from '../fakes/discord/fake-discord-payloads.js';
import { buildEvent } from '../support/event-builders.js';
import type { ManualClock } from '../support/manual-clock.js';
import { fakeDiscordAdapter, recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

export const restTimeoutMs = 300;
/** The poster's settle time: the REST timeout plus a margin. */
export const settleMs = restTimeoutMs + 5_000;
/** How long the poster counts on Discord's nonce dedupe (the fake keeps nonces until told otherwise). */
export const nonceWindowMs = 120_000;

export const campaign: ChannelRef = {
  platform: 'discord',
  workspaceId: defaultGuild.id,
  channelId: defaultGuild.channels[0]!.id,
};

export type DiscordPipeline = AdapterPipeline<FakeDiscord, DiscordAdapter>;

/**
 * The gateway adapter as the pipeline tests run it on the fake, with test timings (REST timeout, nonce window,
 * drain); `extra` adds what one kind of process needs (the witness's own-message hook).
 */
function pipelineAdapter(
  fake: FakeDiscord,
  clock: ManualClock,
  extra: Partial<DiscordAdapterOptions> = {},
): DiscordAdapter {
  return fakeDiscordAdapter(fake, {
    core: new RecordingCore(),
    logger: recordingLogger(),
    restTimeoutMs,
    nonceWindowMs,
    clock,
    drainTimeoutMs: 100,
    ...extra,
  });
}

/** The gateway adapter logged in to the fake, with test timings (REST timeout, nonce window, drain). */
export async function startDiscordAdapter(fake: FakeDiscord, clock: ManualClock): Promise<DiscordAdapter> {
  const adapter = pipelineAdapter(fake, clock);
  await adapter.start();
  return adapter;
}

/** One bot process: the gateway adapter, logged in, and the pipeline its poster registers with. */
export async function startDiscordPipeline(
  fake: FakeDiscord,
  options: Omit<PipelineOptions, 'posters' | 'access'> & { readonly clock: ManualClock },
): Promise<DiscordPipeline> {
  return startAdapterPipeline(fake, await startDiscordAdapter(fake, options.clock), options);
}

/** Create Message calls to a channel (or thread). */
export const createsIn = (fake: FakeDiscord, channelId: string): RecordedRequest[] =>
  fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${channelId}/messages`);

/** The first embed of a recorded message body. */
export const embedOf = (body: unknown): { title?: string; description?: string } =>
  (body as { embeds?: { title?: string; description?: string }[] }).embeds?.[0] ?? {};

/**
 * One bot process whose gateway adapter hands the bot's own MESSAGE_CREATE events to the pipeline
 * (`Delivery.witnessed`, GuildMessages intent): the witness of src/delivery/witness.ts.
 */
export async function startWitnessedDiscordPipeline(
  fake: FakeDiscord,
  options: Omit<PipelineOptions, 'posters' | 'access'> & { readonly clock: ManualClock },
): Promise<DiscordPipeline> {
  let witnessed: ((sighting: Sighting) => void) | undefined;
  const adapter = pipelineAdapter(fake, options.clock, {
    onOwnMessage: (sighting) => witnessed?.(sighting),
  });
  await adapter.start();
  const bot = await startAdapterPipeline(fake, adapter, options);
  witnessed = (sighting) => bot.delivery.witnessed(sighting);
  return bot;
}

/** Supporter `n` (id `f<n>`, "Fan n"), found now on `clock`. */
export const fanAt = (clock: ManualClock, n: number) =>
  buildEvent.supporter({
    id: `f${n}`,
    displayName: `Fan ${n}`,
    supporterCount: 100 + n,
    occurredAt: clock.now(),
    detectedAt: clock.now(),
  });

/** Discord's Send Messages permission bit. */
const sendMessages = 1n << 11n;

/** The campaign channel denies the bot's role Send Messages (a server admin's overwrite): posts get 50013. */
export function denySendMessages(fake: FakeDiscord): void {
  fake.setPermissionOverwrites(campaign.channelId, [
    { id: botRoleId(defaultGuild), type: 0, deny: sendMessages },
  ]);
}

/** The overwrite removed: the bot may post in the campaign channel again. */
export function allowSendMessages(fake: FakeDiscord): void {
  fake.setPermissionOverwrites(campaign.channelId, []);
}

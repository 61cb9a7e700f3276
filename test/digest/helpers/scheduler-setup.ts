import type { Locale } from '../../../src/core/command-core.js';
import type { ChannelRef, Subscription, SubscriptionStore } from '../../../src/core/ports.js';
import {
  createDigestScheduler,
  type DigestScheduler,
  type DigestSchedulerOptions,
} from '../../../src/digest/index.js';
import type { NoticeKind } from '../../../src/domain/events.js';
import type { Claims } from '../../../src/lib/coordination/claims.js';
import { type KeyValueStore, memoryStore } from '../../../src/lib/store.js';
import { type PipelineHarness, startPipeline } from '../../delivery/pipeline-harness.js';
import { type PostedMessage, ScriptedPoster } from '../../delivery/scripted-poster.js';
import { FakeReadModel } from '../../support/fake-read-model.js';
import { ManualClock } from '../../support/manual-clock.js';
import { scriptedCampaign } from '../campaign-fixtures.js';

/**
 * Shared set-up of the digest scheduler tests (digest-due, create-digest-scheduler, digest-replicas):
 * Berlin's 09:00, channels, subscriptions, platforms that record what lands, and schedulers that post
 * through the real delivery pipeline (`post: (request) => delivery.postScheduled(request)`), each in
 * a "process" of its own on a shared store, as restarts and replicas run them.
 */

export const MINUTE = 60_000;
export const channel = (channelId: string, platform: ChannelRef['platform'] = 'discord'): ChannelRef => ({
  platform,
  workspaceId: 'guild-1',
  channelId,
});
export const general = channel('general');
export const team = channel('team', 'slack');
export const broken = channel('broken');

/** Subscriptions held in memory, answering forProject like the core's store. */
export class FakeSubscriptions implements SubscriptionStore {
  readonly subscriptions: Subscription[] = [];

  add(project: string, channel: ChannelRef, kinds: readonly NoticeKind[] = ['digest'], at = 0): this {
    this.subscriptions.push({
      project,
      channel,
      kinds,
      createdBy: 'admin',
      createdAt: 0,
      kindsAddedAt: Object.fromEntries(kinds.map((k) => [k, at])),
    });
    return this;
  }
  async subscribe(): Promise<never> {
    throw new Error('not used by the scheduler');
  }
  async unsubscribe(): Promise<never> {
    throw new Error('not used by the scheduler');
  }
  async removeWorkspace(): Promise<never> {
    throw new Error('not used by the scheduler');
  }
  async claimWatchingAnnouncement(): Promise<never> {
    throw new Error('not used by the scheduler');
  }
  async forChannel(ref: ChannelRef) {
    return this.subscriptions.filter((s) => s.channel.channelId === ref.channelId);
  }
  async forProject(project: string, kind: NoticeKind) {
    return this.subscriptions.filter((s) => s.project === project && s.kinds.includes(kind));
  }
}

/** Discord and Slack as the channels see them: what landed (in order), what was tried, and faults to script. */
export class DigestPlatforms {
  readonly discord: ScriptedPoster;
  readonly slack: ScriptedPoster;
  constructor(clock: ManualClock) {
    this.discord = new ScriptedPoster('discord', clock);
    this.slack = new ScriptedPoster('slack', clock);
  }
  /** Every message that landed, oldest first. */
  get posted(): PostedMessage[] {
    return [...this.discord.messages, ...this.slack.messages].sort((a, b) => a.at - b.at);
  }
  /** The channel ids of what landed. */
  channels(): string[] {
    return this.posted.map((p) => p.channel.channelId);
  }
  /** The channel ids of every attempt, refused ones included. */
  attempts(): string[] {
    return [...this.discord.attempts, ...this.slack.attempts].map((a) => a.channel.channelId);
  }
  /** The next `times` posts to the (Discord) channel are refused as a deleted channel's are. */
  refuse(channelId: string, times: number): void {
    this.discord.fail(
      channelId,
      ...Array.from({ length: times }, () => ({ kind: 'unavailable', reason: 'gone' }) as const),
    );
  }
}

// Europe/Berlin is UTC+1 in winter: 09:00 local = 08:00 UTC.
export const berlinNine = (day: number) => Date.UTC(2026, 2, day, 8, 0);

/** One process's store and claims (default: the setup's store, claims of its own). */
export interface ProcessOptions {
  readonly store?: KeyValueStore;
  readonly claims?: Claims;
}

export interface Setup {
  clock: ManualClock;
  store: KeyValueStore;
  poster: DigestPlatforms;
  subscriptions: FakeSubscriptions;
  readModel: FakeReadModel;
  /** A scheduler in a new process: its own delivery pipeline on the shared store. */
  scheduler: (
    overrides?: Partial<DigestSchedulerOptions>,
    process?: ProcessOptions,
  ) => Promise<DigestScheduler>;
  /** Time passing in 10 s steps, each waiting for every pipeline made (their lanes' retries fire on the way). */
  advance(ms: number): Promise<void>;
}

const schedulers: DigestScheduler[] = [];
const pipelines: PipelineHarness[] = [];

/** Stops every scheduler {@link setup} made and its pipeline; the scheduler tests pass it to `afterEach`. */
export async function stopSchedulers(): Promise<void> {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  await Promise.all(pipelines.splice(0).map((p) => p.stop()));
}

/**
 * A clock at `startMs`, `solar-kiosk` subscribed to the digest in #general (en, Discord) and #team
 * (de, Slack), and a scheduler factory for 09:00 Europe/Berlin; stop what it made with {@link stopSchedulers}.
 */
export function setup(startMs: number): Setup {
  const clock = new ManualClock(startMs);
  const store = memoryStore();
  const poster = new DigestPlatforms(clock);
  const subscriptions = new FakeSubscriptions().add('solar-kiosk', general).add('solar-kiosk', team);
  const readModel = new FakeReadModel({ clock }).addProject(scriptedCampaign(berlinNine(10)));
  const locales: Record<string, Locale> = { team: 'de' };
  return {
    clock,
    store,
    poster,
    subscriptions,
    readModel,
    async advance(ms) {
      for (let passed = 0; passed < ms; passed += 10_000) {
        clock.advance(Math.min(10_000, ms - passed));
        for (const pipeline of pipelines) await pipeline.settle();
      }
    },
    scheduler: async (overrides = {}, process = {}) => {
      const pipeline = await startPipeline({
        posters: [poster.discord, poster.slack],
        clock,
        store: process.store ?? store,
        ...(process.claims ? { claims: process.claims } : {}),
      });
      pipelines.push(pipeline);
      const scheduler = createDigestScheduler({
        readModel,
        subscriptions,
        localeFor: async (ref) => locales[ref.channelId] ?? 'en',
        post: (request) => pipeline.delivery.postScheduled(request),
        clock,
        time: '09:00',
        timeZone: 'Europe/Berlin',
        projects: () => ['solar-kiosk'],
        // These tests are about delivery, not pixels: a small chart keeps the suite fast.
        chartOptions: { scale: 0.25, text: 'none' },
        ...overrides,
      });
      schedulers.push(scheduler);
      return scheduler;
    },
  };
}

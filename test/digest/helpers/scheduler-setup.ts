import type { Locale } from '../../../src/core/command-core.js';
import type { NeutralMessage } from '../../../src/core/message.js';
import type { ChannelRef, Subscription, SubscriptionStore } from '../../../src/core/ports.js';
import {
  createDigestScheduler,
  type DigestScheduler,
  type DigestSchedulerOptions,
} from '../../../src/digest/index.js';
import type { NoticeKind } from '../../../src/domain/events.js';
import { type KeyValueStore, memoryStore } from '../../../src/lib/store.js';
import { FakeReadModel } from '../../support/fake-read-model.js';
import { ManualClock } from '../../support/manual-clock.js';
import { scriptedCampaign } from '../campaign-fixtures.js';

/**
 * Shared set-up of the digest scheduler tests (digest-due, create-digest-scheduler): Berlin's 09:00,
 * channels, subscriptions and a poster that records, and a scheduler wired to them on a ManualClock.
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

export interface Posted {
  readonly channel: string;
  readonly message: NeutralMessage;
  readonly key: string;
  readonly at: number;
}

/** Records every post; channels in `failing` throw like a deleted channel would. */
export class RecordingPoster {
  readonly posted: Posted[] = [];
  readonly attempts: string[] = [];
  readonly failing = new Set<string>();
  constructor(private readonly clock: ManualClock) {}
  post = async (ref: ChannelRef, message: NeutralMessage, key: string): Promise<void> => {
    this.attempts.push(ref.channelId);
    if (this.failing.has(ref.channelId)) throw new Error(`Missing Access to ${ref.channelId}`);
    this.posted.push({ channel: ref.channelId, message, key, at: this.clock.now() });
  };
  channels(): string[] {
    return this.posted.map((p) => p.channel);
  }
}

// Europe/Berlin is UTC+1 in winter: 09:00 local = 08:00 UTC.
export const berlinNine = (day: number) => Date.UTC(2026, 2, day, 8, 0);

export interface Setup {
  clock: ManualClock;
  store: KeyValueStore;
  poster: RecordingPoster;
  subscriptions: FakeSubscriptions;
  readModel: FakeReadModel;
  scheduler: (overrides?: Partial<DigestSchedulerOptions>) => DigestScheduler;
}

const schedulers: DigestScheduler[] = [];

/** Stops every scheduler {@link setup} made; the scheduler tests pass it to `afterEach`. */
export async function stopSchedulers(): Promise<void> {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
}

/**
 * A clock at `startMs`, `solar-kiosk` subscribed to the digest in #general (en) and #team (de), and a
 * scheduler factory for 09:00 Europe/Berlin; stop what it made with {@link stopSchedulers}.
 */
export function setup(startMs: number): Setup {
  const clock = new ManualClock(startMs);
  const store = memoryStore();
  const poster = new RecordingPoster(clock);
  const subscriptions = new FakeSubscriptions().add('solar-kiosk', general).add('solar-kiosk', team);
  const readModel = new FakeReadModel({ clock }).addProject(scriptedCampaign(berlinNine(10)));
  const locales: Record<string, Locale> = { team: 'de' };
  return {
    clock,
    store,
    poster,
    subscriptions,
    readModel,
    scheduler: (overrides = {}) => {
      const scheduler = createDigestScheduler({
        readModel,
        subscriptions,
        localeFor: async (ref) => locales[ref.channelId] ?? 'en',
        post: poster.post,
        store,
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

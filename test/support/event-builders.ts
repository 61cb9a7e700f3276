/** Builders for every {@link FundbotEvent} type, for notice rendering and routing tests. */
import type {
  BlogPostEvent,
  FundbotEvent,
  MilestoneEvent,
  ProjectStatusEvent,
  RewardSoldOutEvent,
  RewardUnlockedEvent,
  SupporterBurstEvent,
  SupporterEvent,
  WallPostBurstEvent,
  WallPostEvent,
  WatchingEvent,
} from '../../src/domain/events.js';
import { t0 } from './builders.js';

const base = (id: string) => ({ id, project: 'solar-kiosk', occurredAt: t0 - 5_000, detectedAt: t0 });

export const buildEvent = {
  supporter: (o: Partial<SupporterEvent> = {}): SupporterEvent => ({
    ...base('fundings:1767225595:88'),
    type: 'supporter',
    displayName: 'Grace H.',
    supporterCount: 123,
    fundingTotal: 12_345,
    currency: 'EUR',
    ...o,
  }),
  supporterBurst: (o: Partial<SupporterBurstEvent> = {}): SupporterBurstEvent => ({
    ...base('fundings-burst:1'),
    type: 'supporter-burst',
    count: 12,
    displayNames: ['Ada', 'Bob', 'Cleo'],
    supporterCount: null,
    fundingTotal: 15_000,
    currency: 'EUR',
    ...o,
  }),
  wallPost: (o: Partial<WallPostEvent> = {}): WallPostEvent => ({
    ...base('wall:501'),
    type: 'wall-post',
    postId: 501,
    author: 'Ada L.',
    message: 'Great idea, good luck!',
    ...o,
  }),
  wallPostBurst: (o: Partial<WallPostBurstEvent> = {}): WallPostBurstEvent => ({
    ...base('wall-burst:1'),
    type: 'wall-post-burst',
    count: 4,
    authors: ['Ada', 'Bob', 'Ada'],
    ...o,
  }),
  blogPost: (o: Partial<BlogPostEvent> = {}): BlogPostEvent => ({
    ...base('blog:301'),
    type: 'blog-post',
    postId: 301,
    title: 'We are live!',
    blogType: 'text',
    link: 'https://platform.example/solar-kiosk/blog/301',
    supporterOnly: false,
    teaser: 'The campaign has started.',
    ...o,
  }),
  milestone: (o: Partial<MilestoneEvent> = {}): MilestoneEvent => ({
    ...base('milestone:50'),
    type: 'milestone',
    percent: 50,
    goalReached: false,
    funding: 10_000,
    goal: 20_000,
    currency: 'EUR',
    ...o,
  }),
  rewardSoldOut: (o: Partial<RewardSoldOutEvent> = {}): RewardSoldOutEvent => ({
    ...base('reward-sold-out:12'),
    type: 'reward-sold-out',
    rewardId: 12,
    title: 'Sunny mug',
    price: 25,
    currency: 'EUR',
    ...o,
  }),
  rewardUnlocked: (o: Partial<RewardUnlockedEvent> = {}): RewardUnlockedEvent => ({
    ...base('reward-unlocked:13'),
    type: 'reward-unlocked',
    rewardId: 13,
    title: 'Golden spoon',
    price: 250,
    currency: 'EUR',
    ...o,
  }),
  projectStatus: (o: Partial<ProjectStatusEvent> = {}): ProjectStatusEvent => ({
    ...base('project-status:successful'),
    type: 'project-status',
    from: 'active',
    to: 'successful',
    ...o,
  }),
  watching: (o: Partial<WatchingEvent> = {}): WatchingEvent => ({
    ...base('watching:solar-kiosk'),
    type: 'watching',
    title: 'Solar Kiosk',
    funding: 12_345,
    goal: 20_000,
    currency: 'EUR',
    supporters: 123,
    ...o,
  }),
};

/** One event of every type, for tests that must cover them all. */
export function oneOfEveryEvent(): FundbotEvent[] {
  return [
    buildEvent.supporter(),
    buildEvent.supporterBurst(),
    buildEvent.wallPost(),
    buildEvent.wallPostBurst(),
    buildEvent.blogPost(),
    buildEvent.milestone(),
    buildEvent.rewardSoldOut(),
    buildEvent.rewardUnlocked(),
    buildEvent.projectStatus(),
    buildEvent.watching(),
  ];
}

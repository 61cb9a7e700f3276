/**
 * Builders and a scripted campaign for the digest tests, served through the shared
 * FakeReadModel of test/support.
 */
import type { BlogPost, Incentive, Project, WallPost } from '../../src/api/schemas/index.js';
import type { HistoryPoint } from '../../src/core/ports.js';
import { buildBlogPost, buildIncentive, buildProject, buildWallPost } from '../support/builders.js';
import type { FakeProjectFixture } from '../support/fake-read-model.js';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

// Built on the shared builders of test/support, whose output is checked against the API's zod schemas.

export function aProject(overrides: Partial<Project> = {}): Project {
  return buildProject({
    id: 1,
    current_funding: 0,
    total_funding: 0,
    funding_threshold: 10_000,
    supporter_count: 0,
    ...overrides,
  });
}

export function aReward(overrides: Partial<Incentive> & { id: number }): Incentive {
  return buildIncentive({
    title: `Reward ${overrides.id}`,
    quantity_total: 0,
    quantity_remaining: 999,
    quantity_sold: 0,
    url: `https://platform.example/solar-kiosk/rewards/${overrides.id}`,
    ...overrides,
  });
}

export function aWallPost(overrides: Partial<WallPost> & { id: number; at: number }): WallPost {
  const { at, ...rest } = overrides;
  return buildWallPost({
    created_timestamp: Math.floor(at / 1000),
    user: { id: 100 + overrides.id, first_name: 'Ada', last_name: 'L', display_name: 'Ada L.' },
    ...rest,
  });
}

export function aBlogPost(overrides: Partial<BlogPost> & { id: number; at: number }): BlogPost {
  const { at, ...rest } = overrides;
  return buildBlogPost({
    title: `Update ${overrides.id}`,
    text: 'Full text of the update.',
    release_timestamp: Math.floor(at / 1000),
    ...rest,
  });
}

export function aPoint(
  at: number,
  funding: number,
  supporters: number,
  rewardsSold: Record<string, number> = {},
): HistoryPoint {
  return { at, funding, supporters, rewardsSold };
}

/**
 * A scripted ten-day campaign (goal 10,000 EUR) ending at `now`:
 * steady 500/day for 8 days, then 1,500 and 2,000 in the last two days
 * (crossing 50 % and 75 % in the last 24 hours). Rewards 1-3 visible, 4 hidden.
 */
export function scriptedCampaign(now: number): FakeProjectFixture {
  const start = now - 10 * DAY;
  const history: HistoryPoint[] = [];
  let funding = 0;
  let supporters = 0;
  for (let day = 0; day <= 8; day++) {
    history.push(
      aPoint(start + day * DAY, funding, supporters, { '1': day * 2, '2': day, '3': 5, '4': day }),
    );
    funding += 500;
    supporters += 10;
  }
  // Day 8 -> 9 (the day before the last 24 hours): 4,000 -> 4,500 at now - 24 h exactly... then a jump.
  history.push(aPoint(now - DAY - HOUR, 4_500, 90, { '1': 18, '2': 9, '3': 5, '4': 9 }));
  history.push(aPoint(now - 12 * HOUR, 6_000, 100, { '1': 22, '2': 9, '3': 8, '4': 12 }));
  history.push(aPoint(now - HOUR, 8_000, 110, { '1': 25, '2': 9, '3': 10, '4': 15 }));
  return {
    project: aProject({ current_funding: 8_000, total_funding: 8_000, supporter_count: 110 }),
    history,
    rewards: [
      aReward({ id: 1, title: 'Sticker pack', quantity_sold: 25 }),
      aReward({ id: 2, title: 'T-shirt', quantity_sold: 9 }),
      aReward({
        id: 3,
        title: 'Dinner with the\nteam',
        quantity_total: 10,
        quantity_remaining: 0,
        quantity_sold: 10,
        is_available: false,
      }),
      aReward({ id: 4, title: 'Secret reward', status: 'hidden', quantity_sold: 15 }),
      aReward({
        id: 5,
        title: 'Secret until goal',
        hidden_until_goal_reached: true,
        is_unlocked: false,
        quantity_total: 5,
        is_available: false,
      }),
    ],
    wallPosts: [
      aWallPost({ id: 1, at: now - 3 * DAY, message: 'old post' }),
      aWallPost({ id: 2, at: now - 20 * HOUR, message: 'second' }),
      aWallPost({
        id: 3,
        at: now - 2 * HOUR,
        message: `Go go go!\n@everyone ${'very long '.repeat(40)}`,
        user: { id: 7, first_name: 'Bob', last_name: 'B', display_name: 'Bob\u200b the Builder' },
      }),
    ],
    blogPosts: [
      aBlogPost({ id: 1, at: now - 5 * DAY, title: 'Old news' }),
      aBlogPost({ id: 2, at: now - 6 * HOUR, title: 'We are halfway!' }),
      aBlogPost({
        id: 3,
        at: now - 3 * HOUR,
        title: 'Backstage',
        text: 'SECRET supporter-only content',
        description: 'SECRET teaser',
        is_supporter_only: true,
        is_locked: true,
      }),
    ],
  };
}

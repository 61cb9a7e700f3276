/**
 * Builders for API objects with sensible defaults: a test names only what its
 * rule is about (`buildIncentive({ quantity_total: 0 })`). Every builder's
 * output passes the real zod schema of src/api/schemas (checked in
 * test/core/builders.test.ts), so fixtures cannot drift from the API shape.
 */
import type {
  BlogPost,
  Funding,
  Incentive,
  IncentiveDetail,
  IncentiveOption,
  Project,
  WallPost,
} from '../../src/api/schemas/index.js';
import type { HistoryPoint } from '../../src/core/ports.js';

/** 2026-01-01T00:00:00Z, ManualClock's default start. */
export const t0 = Date.UTC(2026, 0, 1);

export function buildProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 4711,
    title: 'Solar Kiosk',
    subtitle: 'A kiosk that runs on sunshine',
    link_caption: 'solar-kiosk',
    status: 'active',
    process_status: null,
    currency: 'EUR',
    current_funding: 12_345,
    total_funding: 12_345,
    funding_threshold: 20_000,
    project_type_all_or_nothing: true,
    supporter_count: 123,
    like_count: 45,
    teaser_text: 'Sunshine for the neighbourhood',
    url: {
      main: 'https://platform.example/solar-kiosk',
      main_relative: '/solar-kiosk',
      widget: 'https://platform.example/solar-kiosk/widget',
    },
    ...overrides,
  };
}

export function buildIncentive(overrides: Partial<Incentive> = {}): Incentive {
  return {
    id: 12,
    title: 'Sunny mug',
    description: '<p>A <b>mug</b> that glows in the sun.</p>',
    price: 25,
    quantity_total: 100,
    quantity_remaining: 40,
    quantity_sold: 60,
    status: 'enabled',
    address_required: true,
    is_available: true,
    is_unlocked: true,
    hidden_until_goal_reached: false,
    funding_amount_until_unlock: null,
    is_in_stock: false,
    url: 'https://platform.example/solar-kiosk/rewards/12',
    gallery_images: [
      { is_image: false, thumbnails: { '1x': 'https://cdn.example/file.pdf' } },
      {
        is_image: true,
        thumbnails: { '1x': 'https://cdn.example/mug-1x.jpg', '2x': 'https://cdn.example/mug-2x.jpg' },
      },
    ],
    project: { id: 4711, title: 'Solar Kiosk', link_caption: 'solar-kiosk', currency: 'EUR' },
    ...overrides,
  };
}

export function buildIncentiveOption(overrides: Partial<IncentiveOption> = {}): IncentiveOption {
  return { id: 1, name: 'M', position: 1, group: 1, ...overrides };
}

/** A single-reward response: the list fields plus unused variation groups unless overridden. */
export function buildIncentiveDetail(overrides: Partial<IncentiveDetail> = {}): IncentiveDetail {
  return {
    ...buildIncentive(),
    variant_label_1: null,
    variant_label_2: null,
    variant_label_3: null,
    variant_choices_1: [],
    variant_choices_2: [],
    variant_choices_3: [],
    ...overrides,
  };
}

/** Turns a list reward into a detail response with no variations (what the API returns for a plain reward). */
export function detailOf(reward: Incentive, overrides: Partial<IncentiveDetail> = {}): IncentiveDetail {
  return buildIncentiveDetail({ ...reward, ...overrides });
}

export function buildBlogPost(overrides: Partial<BlogPost> = {}): BlogPost {
  return {
    id: 301,
    title: 'We are live!',
    text: '<p>The campaign has started. Thank you all!</p>',
    type: 'text',
    status: 'published',
    release_timestamp: Math.floor(t0 / 1000) - 3600,
    is_supporter_only: false,
    is_locked: false,
    description: 'The campaign has started.',
    reading_time_minutes: 2,
    ...overrides,
  };
}

/** A redacted supporter-only post as the API sends it without authorization. */
export function buildLockedBlogPost(overrides: Partial<BlogPost> = {}): BlogPost {
  return buildBlogPost({
    id: 302,
    title: 'Backstage: the first prototype',
    text: '',
    is_supporter_only: true,
    is_locked: true,
    description: 'A look at the prototype, for supporters.',
    image: null,
    gallery_images: [],
    reading_time_minutes: 6,
    ...overrides,
  });
}

export function buildWallPost(overrides: Partial<WallPost> = {}): WallPost {
  return {
    id: 501,
    message: 'Great idea, good luck!',
    status: 'published',
    created_timestamp: Math.floor(t0 / 1000) - 600,
    user: { id: 77, first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada L.' },
    ...overrides,
  };
}

export function buildFunding(overrides: Partial<Funding> = {}): Funding {
  return {
    support_timestamp: Math.floor(t0 / 1000) - 120,
    user: { id: 88, display_name: 'Grace H.' },
    ...overrides,
  };
}

export function buildHistoryPoint(overrides: Partial<HistoryPoint> = {}): HistoryPoint {
  return { at: t0 - 24 * 3_600_000, funding: 10_000, supporters: 100, rewardsSold: {}, ...overrides };
}

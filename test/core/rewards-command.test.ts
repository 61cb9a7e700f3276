import { describe, expect, test } from 'vitest';
import {
  buildIncentive,
  buildIncentiveDetail,
  buildIncentiveOption,
  buildProject,
  t0,
} from '../support/builders.js';
import { allText, allUrls, createCoreFixture } from '../support/core-fixture.js';
import { FakeApiError } from '../support/fake-read-model.js';
import { hostileTexts } from '../support/hostile-text.js';

const reward = buildIncentive;

function withRewards(rewards: ReturnType<typeof buildIncentive>[], extra = {}) {
  return createCoreFixture({ projects: [{ project: buildProject(), rewards, ...extra }] });
}

describe('/rewards', () => {
  test('lists price in the project currency and stock "n of m left"', async () => {
    const m = await withRewards([reward()]).run('rewards');
    expect(m.title).toBe('Rewards of Solar Kiosk');
    expect(m.fields?.[0]?.name).toBe('Sunny mug · €25');
    expect(m.fields?.[0]?.value).toContain('ID 12 · 40 of 100 left');
  });

  test('unlimited stock (quantity_total 0) says unlimited, never the 999 placeholder', async () => {
    const m = await withRewards([reward({ quantity_total: 0, quantity_remaining: 999 })]).run('rewards');
    expect(m.fields?.[0]?.value).toContain('unlimited');
    expect(allText(m)).not.toContain('999');
  });

  test('sold out comes from is_available; is_in_stock is ignored', async () => {
    const soldOut = await withRewards([
      reward({ is_available: false, is_in_stock: true, quantity_remaining: 0 }),
    ]).run('rewards');
    expect(soldOut.fields?.[0]?.value).toContain('sold out');
    const orderable = await withRewards([reward({ is_available: true, is_in_stock: false })]).run('rewards');
    expect(allText(orderable)).not.toContain('sold out');
    const unlimitedSoldOut = await withRewards([reward({ quantity_total: 0, is_available: false })]).run(
      'rewards',
    );
    expect(unlimitedSoldOut.fields?.[0]?.value).toContain('sold out');
  });

  test('only publicly visible rewards: hidden status and hidden-until-goal are left out', async () => {
    const m = await withRewards([
      reward({ id: 1, title: 'Visible' }),
      reward({ id: 2, title: 'Manually hidden', status: 'hidden' }),
      reward({ id: 3, title: 'Secret', hidden_until_goal_reached: true, is_unlocked: false }),
      reward({ id: 4, title: 'Revealed', hidden_until_goal_reached: true, is_unlocked: true }),
    ]).run('rewards');
    const text = allText(m);
    expect(text).toContain('Visible');
    expect(text).toContain('Revealed');
    expect(text).not.toContain('Manually hidden');
    expect(text).not.toContain('Secret');
  });

  test('a locked reward that is not secret is shown locked with the amount still missing', async () => {
    const m = await withRewards([
      reward({ is_unlocked: false, hidden_until_goal_reached: false, funding_amount_until_unlock: 7655 }),
    ]).run('rewards');
    expect(m.fields?.[0]?.value).toContain('🔒 locked: unlocks when €7,655 more is funded');
  });

  test('descriptions are plain text from HTML, shortened', async () => {
    const m = await withRewards([
      reward({ description: `<p>Hello <a href="https://evil.example">there</a></p>${'x'.repeat(900)}` }),
    ]).run('rewards');
    const value = m.fields?.[0]?.value ?? '';
    expect(value).toContain('Hello there');
    expect(value).not.toContain('<');
    expect(value).not.toContain('evil.example');
    expect(value.length).toBeLessThan(300);
  });

  test('more rewards than render well are counted as "and N more"', async () => {
    const many = Array.from({ length: 30 }, (_, i) => reward({ id: 100 + i, title: `Reward ${i}` }));
    const m = await withRewards(many).run('rewards');
    expect(m.fields).toHaveLength(10);
    expect(m.text).toBe('…and 20 more rewards: use /reward <id>');
  });

  test('no visible reward says so', async () => {
    const m = await withRewards([reward({ status: 'hidden' })]).run('rewards');
    expect(m.text).toBe('No rewards are on offer right now.');
    expect(m.fields).toEqual([]);
  });

  test('German prices and stock', async () => {
    const f = withRewards([reward({ price: 12.5 })]);
    await f.settings.setLocale(
      { platform: 'discord', workspaceId: 'G1', channelId: 'C1' },
      'workspace',
      'de',
    );
    const m = await f.run('rewards');
    expect(allText(m)).toContain('Sunny mug · 12,50 €');
    expect(allText(m)).toContain('noch 40 von 100');
  });

  test('stale rewards are labelled', async () => {
    const f = withRewards([reward()]);
    f.readModel.setFreshness('solar-kiosk', 'rewards', {
      fetchedAt: t0 - 12 * 60_000,
      staleBecause: { code: 'read-failed', params: { failure: 'http-error', status: 502 } },
    });
    const m = await f.run('rewards');
    expect(m.footer).toBe('Figures from 12 minutes ago: the platform answered with an error (HTTP 502)');
    expect(m.tone).toBe('warning');
  });

  test('hostile reward titles stay bounded plain text and never become links', async () => {
    const m = await withRewards([
      reward({ title: hostileTexts.long }),
      reward({ id: 2, title: hostileTexts.slackLink, description: hostileTexts.markdownLink }),
    ]).run('rewards');
    for (const field of m.fields ?? []) expect(Array.from(field.name).length).toBeLessThanOrEqual(256);
    expect(allUrls(m).some((u) => u.includes('evil'))).toBe(false);
  });
});

describe('/reward <id>', () => {
  test('shows one reward with price, stock, image from the first gallery image and a link', async () => {
    const f = withRewards([reward()]);
    const m = await f.run('reward', { id: 12 });
    expect(m.title).toBe('Sunny mug');
    expect(m.titleUrl).toBe('https://platform.example/solar-kiosk/rewards/12');
    expect(m.image).toEqual({ kind: 'url', url: 'https://cdn.example/mug-1x.jpg', alt: 'Sunny mug' });
    expect(m.fields?.find((x) => x.name === 'Price')?.value).toBe('€25');
    expect(m.fields?.find((x) => x.name === 'Stock')?.value).toBe('40 of 100 left');
    expect(f.readModel.callsOf('reward')[0]?.args).toEqual([12, 5 * 60_000]);
  });

  test('no image when no gallery entry is an image (the deprecated image field is not used)', async () => {
    const detail = buildIncentiveDetail({
      gallery_images: [{ is_image: false, thumbnails: { '1x': 'https://cdn.example/doc.pdf' } }],
    });
    const withDeprecated = {
      ...detail,
      image: { is_image: true, thumbnails: { '1x': 'https://cdn.example/old.jpg' } },
    };
    const f = withRewards([], { rewardDetails: [withDeprecated] });
    const m = await f.run('reward', { id: 12 });
    expect(m.image).toBeUndefined();
  });

  test('variation groups: fixed choices by position, free text for an empty list, null label unused', async () => {
    const detail = buildIncentiveDetail({
      variant_label_1: 'Size',
      variant_choices_1: [
        buildIncentiveOption({ id: 3, name: 'L', position: 3 }),
        buildIncentiveOption({ id: 1, name: 'S', position: 1 }),
        buildIncentiveOption({ id: 2, name: 'M', position: 2 }),
      ],
      variant_label_2: 'Engraving',
      variant_choices_2: [],
      variant_label_3: null,
      variant_choices_3: [buildIncentiveOption({ id: 9, name: 'Ghost', position: 1, group: 3 })],
    });
    const m = await withRewards([], { rewardDetails: [detail] }).run('reward', { id: 12 });
    expect(m.fields?.find((x) => x.name === 'Size')?.value).toBe('S, M, L');
    expect(m.fields?.find((x) => x.name === 'Engraving')?.value).toBe('free text');
    expect(allText(m)).not.toContain('Ghost');
  });

  test('a hidden or secret reward answers exactly like a missing one', async () => {
    const f = withRewards([
      reward({ id: 2, status: 'hidden' }),
      reward({ id: 3, hidden_until_goal_reached: true, is_unlocked: false }),
    ]);
    const missing = await f.run('reward', { id: 99 });
    const hidden = await f.run('reward', { id: 2 });
    const secret = await f.run('reward', { id: 3 });
    expect(missing.private).toBe(true);
    expect(missing.text).toBe('There is no reward 99 in Solar Kiosk. /rewards lists the ids.');
    expect(hidden.text).toBe(missing.text?.replace('99', '2'));
    expect(secret.text).toBe(missing.text?.replace('99', '3'));
  });

  test('a locked visible reward shows the missing amount and a locked badge', async () => {
    const m = await withRewards([reward({ is_unlocked: false, funding_amount_until_unlock: 500 })]).run(
      'reward',
      {
        id: 12,
      },
    );
    expect(m.badge).toBe('locked');
    expect(allText(m)).toContain('unlocks when €500 more is funded');
  });

  test('an invalid id is a private error', async () => {
    const m = await withRewards([reward()]).run('reward', { id: -3 });
    expect(m.private).toBe(true);
    expect(m.tone).toBe('error');
  });

  test('API failure with nothing cached: private, secret-free', async () => {
    const f = withRewards([reward()]);
    f.readModel.failWith('solar-kiosk', 'reward', new FakeApiError(500, 'http_500'));
    const m = await f.run('reward', { id: 12 });
    expect(m.private).toBe(true);
    expect(JSON.stringify(m)).not.toContain('svc_');
  });
});

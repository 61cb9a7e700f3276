import { describe, expect, it } from 'vitest';
import { type DigestData, digestPreview, renderDigest } from '../../src/digest/index.js';
import { FakeReadModel, missingScope } from '../support/fake-read-model.js';
import { aBlogPost, aPoint, aProject, aReward, aWallPost, DAY, HOUR } from './campaign-fixtures.js';
import { campaign, de, digestOf, en, fieldValue, now, plain, timeZone } from './helpers/digest-setup.js';

describe('buildDigest on a scripted ten-day campaign', () => {
  it('reports the funding and supporter change against the snapshot 24 hours ago', async () => {
    const data = await digestOf(campaign());
    expect(data.change).toEqual({ funding: 3_500, supporters: 20, sinceMs: now - DAY });
    expect(data.funding).toEqual({ current: 8_000, goal: 10_000, percent: 80, supporters: 110 });
    expect(data.date).toBe('2026-03-10');
  });

  it("reports the project's configured milestones, the ones the engine announces, in the preview too", async () => {
    const preview = digestPreview(
      campaign(),
      { now: () => now, sleep: async () => {} },
      timeZone,
      (project) => (project === 'solar-kiosk' ? [60] : undefined),
    );
    const message = await preview('solar-kiosk', 'en');
    const milestones = message.fields?.find((f) => f.value.endsWith('of the goal'))?.value;
    expect(milestones).toBe('60% of the goal');
  });

  it('lists the milestones crossed in the last 24 hours, not those crossed before', async () => {
    const data = await digestOf(campaign());
    expect(data.milestones).toEqual([50, 75]);
  });

  it('does not announce a milestone again after a dip and a recovery', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 5_200, supporter_count: 12 }),
      history: [
        aPoint(now - 3 * DAY, 5_100, 10),
        aPoint(now - 2 * DAY, 4_900, 10),
        aPoint(now - 2 * HOUR, 5_200, 12),
      ],
    });
    expect((await digestOf(readModel)).milestones).toEqual([]);
  });

  it('counts the wall posts of the last 24 hours and shows the latest as one short plain line', async () => {
    const data = await digestOf(campaign());
    expect(data.wall?.count).toBe(2);
    expect(data.wall?.latest?.author).toBe('Bob the Builder');
    expect(data.wall?.latest?.message).not.toContain('\n');
    expect(data.wall?.latest?.message.startsWith('Go go go! @everyone very long')).toBe(true);
    expect(Array.from(data.wall?.latest?.message ?? '').length).toBeLessThanOrEqual(200);
  });

  it("names a wall post's author that shows nothing with the localized placeholder", async () => {
    const data = await digestOf(campaign());
    const latest = data.wall?.latest;
    if (!latest) throw new Error('the campaign fixture has a wall post');
    const blank: DigestData = {
      ...data,
      wall: { ...data.wall!, latest: { ...latest, author: '\u3164\u00ad' } },
    };
    expect(fieldValue(renderDigest(blank, 'en'), 'Wall')).toContain('latest by a supporter:');
    expect(fieldValue(renderDigest(blank, 'de'), 'Pinnwand')).toContain('zuletzt von jemand:');
  });

  it('lists the blog posts of the last 24 hours with the supporter-only flag and never their content', async () => {
    const data = await digestOf(campaign());
    expect(data.blogPosts).toEqual([
      { title: 'Backstage', supporterOnly: true, at: now - 3 * HOUR },
      { title: 'We are halfway!', supporterOnly: false, at: now - 6 * HOUR },
    ]);
    for (const locale of ['en', 'de'] as const) {
      const { image: _image, ...message } = renderDigest(data, locale);
      expect(JSON.stringify(message)).not.toContain('SECRET');
      expect(JSON.stringify(message)).not.toContain('Full text');
    }
  });

  it('counts rewards sold from quantity_sold deltas, by title, for publicly visible rewards only', async () => {
    const data = await digestOf(campaign());
    expect(data.rewardsSold).toEqual([
      { title: 'Sticker pack', sold: 7 },
      { title: 'Dinner with the team', sold: 5 },
    ]);
  });

  it('lists visible limited rewards that are no longer available as sold out', async () => {
    const data = await digestOf(campaign());
    // Reward 5 is also unavailable but secret until the goal is reached.
    expect(data.soldOut).toEqual([{ title: 'Dinner with the team' }]);
  });

  it('extrapolates the last 7 days rate to the goal', async () => {
    const data = await digestOf(campaign());
    // 7 days ago: 1,500; now 8,000 -> 6,500 / 7 days; 2,000 missing.
    const perDay = 6_500 / 7;
    expect(data.pace).toMatchObject({ kind: 'eta', basisDays: 7 });
    if (data.pace.kind !== 'eta') throw new Error('expected an eta');
    expect(data.pace.perDay).toBeCloseTo(perDay, 6);
    expect(data.pace.at).toBeCloseTo(now + (2_000 / perDay) * DAY, -3);
  });

  it('says the goal is reached once funding is at or above the goal', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 12_000, supporter_count: 40 }),
      history: [aPoint(now - 8 * DAY, 0, 0), aPoint(now - 2 * HOUR, 12_000, 40)],
    });
    const data = await digestOf(readModel);
    expect(data.pace).toEqual({ kind: 'goal-reached' });
    expect(data.milestones).toEqual([25, 50, 75, 100]);
    expect(fieldValue(renderDigest(data, 'de'), 'Tempo')).toBe('Ziel erreicht.');
  });

  it('says there were no supports when funding did not grow in 7 days', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 3_000, supporter_count: 30 }),
      history: [aPoint(now - 9 * DAY, 3_000, 30), aPoint(now - HOUR, 3_000, 30)],
    });
    const data = await digestOf(readModel);
    expect(data.pace).toEqual({ kind: 'no-supports', basisDays: 7 });
    const message = renderDigest(data, 'en');
    expect(fieldValue(message, 'Pace')).toBe('No supports in the last 7 days.');
    expect(message.text).toBe('No new supports in the last 24 hours.');
  });

  it('uses the shorter history for the rate and says so', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 3_000, supporter_count: 30 }),
      history: [aPoint(now - 3 * DAY, 0, 0), aPoint(now - HOUR, 3_000, 30)],
    });
    const data = await digestOf(readModel);
    expect(data.pace).toMatchObject({ kind: 'eta', basisDays: 3, perDay: 1_000 });
    expect(fieldValue(renderDigest(data, 'en'), 'Pace')).toContain('At the rate of the last 3 days');
  });

  it('marks a change as partial when the history starts within the last 24 hours', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 300, supporter_count: 3 }),
      history: [aPoint(now - 5 * HOUR, 100, 1)],
    });
    const data = await digestOf(readModel);
    expect(data.change).toEqual({ funding: 200, supporters: 2, sinceMs: now - 5 * HOUR });
    expect(data.pace).toMatchObject({ kind: 'eta', basisDays: 5 / 24 });
    expect(data.window).toEqual({ sinceMs: now - 5 * HOUR, full: false });
    // 04:00 in Berlin: the window names its real start, in the channel's language, with the zone.
    const english = renderDigest(data, 'en');
    expect(english.text).toBe(`+${en(200)} from 2 supporters since 04:00 CET.`);
    expect(fieldValue(english, 'Since 04:00 CET')).toBe(`+${en(200)} · +2 supporters`);
    expect(english.fields?.some((f) => f.name === 'Last 24 hours')).toBe(false);
    const german = renderDigest(data, 'de');
    expect(plain(german.text)).toBe(`+${de(200)} von 2 Unterstützer*innen seit 04:00 MEZ.`);
    expect(fieldValue(german, 'Seit 04:00 MEZ')).toBe(`+${de(200)} · +2 Unterstützer*innen`);
  });

  it('names a window that began the day before with its date', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 300, supporter_count: 3 }),
      history: [aPoint(now - 20 * HOUR, 100, 1)],
    });
    const text = renderDigest(await digestOf(readModel), 'en').text;
    expect(plain(text)).toBe(`+${en(200)} from 2 supporters since Mar 9, 2026, 13:00 CET.`);
  });

  it('says "the last 24 hours" only when the history covers them', async () => {
    const data = await digestOf(campaign());
    expect(data.window).toEqual({ sinceMs: now - DAY, full: true });
    expect(renderDigest(data, 'en').text).toMatch(/ in the last 24 hours\.$/);
  });

  it('counts reward sales from a sale baseline, never the sales since the campaign began', async () => {
    // The engine's first snapshot came before its first reward read: no sales known in it.
    const first = now - 5 * HOUR;
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 1_300, supporter_count: 50 }),
      history: [
        aPoint(first, 1_000, 37),
        aPoint(first + 10_000, 1_000, 37, { '1': 30, '2': 7 }),
        aPoint(now - HOUR, 1_300, 50, { '1': 35, '2': 7, '3': 2 }),
      ],
      rewards: [
        aReward({ id: 1, title: 'Early-bird kiosk kit', quantity_sold: 35 }),
        aReward({ id: 2, title: 'Mug', quantity_sold: 7 }),
        aReward({ id: 3, title: 'New poster', quantity_sold: 2 }),
      ],
    });
    const data = await digestOf(readModel);
    expect(data.rewardsSold).toEqual([
      { title: 'Early-bird kiosk kit', sold: 5 },
      { title: 'New poster', sold: 2 },
    ]);
    expect(data.window).toEqual({ sinceMs: first + 10_000, full: false });
    expect(data.change).toEqual({ funding: 300, supporters: 13, sinceMs: first + 10_000 });
  });

  it('does not report reward sales when no snapshot knows them yet', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 1_300, supporter_count: 50 }),
      history: [aPoint(now - 5 * HOUR, 1_000, 37)],
      rewards: [aReward({ id: 1, title: 'Early-bird kiosk kit', quantity_sold: 35 })],
    });
    expect((await digestOf(readModel)).rewardsSold).toBeNull();
  });

  it('counts wall and blog posts over the same window as the funding', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 300, supporter_count: 3 }),
      history: [aPoint(now - 5 * HOUR, 100, 1)],
      wallPosts: [aWallPost({ id: 1, at: now - 8 * HOUR }), aWallPost({ id: 2, at: now - 2 * HOUR })],
      blogPosts: [aBlogPost({ id: 1, at: now - 6 * HOUR }), aBlogPost({ id: 2, at: now - 1 * HOUR })],
    });
    const data = await digestOf(readModel);
    expect(data.wall?.count).toBe(1);
    expect(data.blogPosts?.map((p) => p.title)).toEqual(['Update 2']);
  });

  it('has no progress bar, milestones or pace for a project without a goal', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ funding_threshold: 0, current_funding: 500, supporter_count: 5 }),
      history: [aPoint(now - 2 * DAY, 100, 1)],
    });
    const data = await digestOf(readModel);
    expect(data.milestones).toEqual([]);
    expect(data.pace).toEqual({ kind: 'no-goal' });
    const message = renderDigest(data, 'en');
    expect(message.progress).toBeUndefined();
    expect(fieldValue(message, 'Pace')).toBeUndefined();
    expect(fieldValue(message, 'Total')).toBe(`${en(500)} · 5 supporters`);
  });

  it('still builds the digest when a section cannot be read, and says which', async () => {
    const readModel = campaign();
    readModel.failWith('solar-kiosk', 'wall', missingScope('wall'));
    const data = await digestOf(readModel);
    expect(data.wall).toBeNull();
    expect(data.rewardsSold).not.toBeNull();
    expect(data.stale).toEqual([{ code: 'section-unavailable', params: { section: 'wall' } }]);
    const message = renderDigest(data, 'en');
    expect(fieldValue(message, 'Wall')).toBe('not available right now');
    expect(message.footer).toContain('Some data may be outdated: wall not available');
    expect(renderDigest(data, 'de').footer).toContain('Pinnwand nicht verfügbar');
  });

  it('fails when the project itself cannot be read', async () => {
    const readModel = campaign();
    readModel.failWith('solar-kiosk', 'project', missingScope('project'));
    await expect(digestOf(readModel)).rejects.toThrow(/project scope/);
  });

  it('reports a full wall page as a lower bound', async () => {
    const wall = Array.from({ length: 60 }, (_, i) => aWallPost({ id: i + 1, at: now - (i + 1) * 60_000 }));
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject(),
      wallPosts: wall,
    });
    const data = await digestOf(readModel);
    expect(data.wall).toMatchObject({ count: 50, countIsLowerBound: true });
    expect(fieldValue(renderDigest(data, 'en'), 'Wall')).toMatch(/^50\+ new posts/);
  });

  it('ignores blog posts and wall posts older than 24 hours or dated in the future', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject(),
      wallPosts: [aWallPost({ id: 1, at: now - DAY - 1000 }), aWallPost({ id: 2, at: now + HOUR })],
      blogPosts: [aBlogPost({ id: 1, at: now - DAY - 1000 }), aBlogPost({ id: 2, at: now + HOUR })],
    });
    const data = await digestOf(readModel);
    expect(data.wall).toEqual({ count: 0, countIsLowerBound: false, latest: null });
    expect(data.blogPosts).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/core/format.js';
import { buildDigest, type DigestData, digestPreview, renderDigest } from '../../src/digest/index.js';
import { FakeReadModel, missingScope } from '../support/fake-read-model.js';
import { allHostileTexts } from '../support/hostile-text.js';
import {
  aBlogPost,
  aPoint,
  aProject,
  aReward,
  aWallPost,
  DAY,
  HOUR,
  scriptedCampaign,
} from './campaign-fixtures.js';

// 09:00 in Berlin (CET) on 10 March 2026.
const now = Date.UTC(2026, 2, 10, 8, 0);
const timeZone = 'Europe/Berlin';

async function digestOf(readModel: FakeReadModel, project = 'solar-kiosk'): Promise<DigestData> {
  return buildDigest({ readModel, project, now, locale: 'en', timeZone });
}

function campaign(): FakeReadModel {
  return new FakeReadModel({ clock: { now: () => now } }).addProject(scriptedCampaign(now));
}

/** Intl puts no-break spaces in German amounts ("8.000,00\u00a0€"); tests compare with plain spaces. */
function plain(text: string | undefined): string | undefined {
  return text?.replace(/[\u00a0\u202f]/g, ' ');
}

/** Amounts as the shared formatter writes them (its decimals policy is the core's to choose). */
const en = (amount: number) => formatMoney(amount, 'EUR', 'en');
const de = (amount: number) => plain(formatMoney(amount, 'EUR', 'de'));

function fieldValue(message: ReturnType<typeof renderDigest>, name: string): string | undefined {
  return plain(message.fields?.find((f) => f.name === name)?.value);
}

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
    // 04:00 in Berlin: the window names its real start, in the channel's language.
    const english = renderDigest(data, 'en');
    expect(english.text).toBe(`+${en(200)} from 2 supporters since 4:00 AM.`);
    expect(fieldValue(english, 'Since 4:00 AM')).toBe(`+${en(200)} · +2 supporters`);
    expect(english.fields?.some((f) => f.name === 'Last 24 hours')).toBe(false);
    const german = renderDigest(data, 'de');
    expect(plain(german.text)).toBe(`+${de(200)} von 2 Unterstützer*innen seit 04:00.`);
    expect(fieldValue(german, 'Seit 04:00')).toBe(`+${de(200)} · +2 Unterstützer*innen`);
  });

  it('names a window that began the day before with its date', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 300, supporter_count: 3 }),
      history: [aPoint(now - 20 * HOUR, 100, 1)],
    });
    const text = renderDigest(await digestOf(readModel), 'en').text;
    expect(plain(text)).toBe(`+${en(200)} from 2 supporters since Mar 9, 2026, 1:00 PM.`);
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
    expect(data.staleBecause).toContain('wall unavailable (ForbiddenError)');
    const message = renderDigest(data, 'en');
    expect(fieldValue(message, 'Wall')).toBe('not available right now');
    expect(message.footer).toContain('Some data may be outdated');
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

describe('renderDigest', () => {
  it('renders the English digest with the chart attached', async () => {
    const message = renderDigest(await digestOf(campaign()), 'en');
    expect(message.title).toBe('Daily digest: Solar Kiosk');
    expect(message.titleUrl).toBe('https://platform.example/solar-kiosk');
    expect(message.text).toBe(`+${en(3_500)} from 20 supporters in the last 24 hours.`);
    expect(fieldValue(message, 'Total')).toBe(`${en(8_000)} of ${en(10_000)} (80%) · 110 supporters`);
    expect(fieldValue(message, 'Last 24 hours')).toBe(`+${en(3_500)} · +20 supporters`);
    expect(fieldValue(message, 'Milestones reached')).toBe('50%, 75% of the goal');
    expect(fieldValue(message, 'Pace')).toBe(
      "At the last 7 days' rate (€928.57 per day) the goal is reached around Mar 12, 2026.",
    );
    expect(fieldValue(message, 'Rewards sold')).toBe('7× Sticker pack\n5× Dinner with the team');
    expect(fieldValue(message, 'Sold out')).toBe('Dinner with the team');
    expect(fieldValue(message, 'Wall')).toMatch(
      /^2 new posts; latest by Bob the Builder: “Go go go! @everyone/,
    );
    expect(fieldValue(message, 'Blog')).toBe('Backstage (supporters only)\nWe are halfway!');
    expect(message.progress).toEqual({ current: 8_000, goal: 10_000, percent: 80 });
    expect(message.footer).toBe('As of Mar 10, 2026, 9:00 AM (Europe/Berlin)');
    expect(message.tone).toBe('success');
    expect(message.image).toMatchObject({
      kind: 'attachment',
      filename: 'funding-solar-kiosk-2026-03-10.png',
      alt: `Funding chart from Feb 28, 2026 to Mar 10, 2026: ${en(8_000)} of the ${en(10_000)} goal.`,
    });
  });

  it('renders the German digest', async () => {
    const message = renderDigest(await digestOf(campaign()), 'de');
    expect(message.title).toBe('Tagesübersicht: Solar Kiosk');
    expect(plain(message.text)).toBe(`+${de(3_500)} von 20 Unterstützer*innen in den letzten 24 Stunden.`);
    expect(fieldValue(message, 'Gesamt')).toBe(
      `${de(8_000)} von ${de(10_000)} (80 %) · 110 Unterstützer*innen`,
    );
    expect(fieldValue(message, 'Erreichte Meilensteine')).toBe('50 %, 75 % des Ziels');
    expect(fieldValue(message, 'Tempo')).toBe(
      'Im Tempo der letzten 7 Tage (928,57 € pro Tag) wird das Ziel etwa am 12.03.2026 erreicht.',
    );
    expect(fieldValue(message, 'Verkaufte Dankeschöns')).toBe('7× Sticker pack\n5× Dinner with the team');
    expect(fieldValue(message, 'Ausverkauft')).toBe('Dinner with the team');
    expect(fieldValue(message, 'Pinnwand')).toMatch(
      /^2 neue Beiträge; zuletzt von Bob the Builder: „Go go go!/,
    );
    expect(fieldValue(message, 'Blog')).toBe('Backstage (nur für Unterstützer*innen)\nWe are halfway!');
    expect(message.footer).toBe('Stand: 10.03.2026, 09:00 (Europe/Berlin)');
  });

  it('shortens long lists with a count of the rest', async () => {
    const blog = Array.from({ length: 8 }, (_, i) => aBlogPost({ id: i + 1, at: now - (i + 1) * HOUR }));
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject(),
      blogPosts: blog,
    });
    const value = fieldValue(renderDigest(await digestOf(readModel), 'en'), 'Blog');
    expect(value?.split('\n')).toHaveLength(6);
    expect(value?.endsWith('… and 3 more')).toBe(true);
  });

  it('keeps a hostile project slug out of the file name', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ link_caption: '../../etc/passwd' }),
    });
    const message = renderDigest(await digestOf(readModel, '../../etc/passwd'), 'en');
    expect(message.image).toMatchObject({ filename: 'funding-etc-passwd-2026-03-10.png' });
  });
});

describe('digest text from strangers', () => {
  it('stays single-line, bounded and free of control characters for every hostile text', async () => {
    for (const hostile of allHostileTexts) {
      const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
        project: aProject({ title: hostile }),
        history: [aPoint(now - 2 * DAY, 0, 0, { '1': 0 })],
        rewards: [
          aReward({ id: 1, title: hostile, quantity_sold: 2, quantity_total: 2, is_available: false }),
        ],
        wallPosts: [
          aWallPost({
            id: 1,
            at: now - HOUR,
            message: hostile,
            user: { id: 1, first_name: hostile, last_name: hostile, display_name: hostile },
          }),
        ],
        blogPosts: [aBlogPost({ id: 1, at: now - HOUR, title: hostile, is_supporter_only: true })],
      });
      const data = await digestOf(readModel);
      const userTexts = [
        data.project.title,
        data.wall?.latest?.author,
        data.wall?.latest?.message,
        ...(data.blogPosts ?? []).map((p) => p.title),
        ...(data.rewardsSold ?? []).map((r) => r.title),
        ...(data.soldOut ?? []).map((r) => r.title),
      ];
      for (const text of userTexts) {
        expect(text).toBeDefined();
        expect(text).not.toMatch(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\ufeff]/);
        expect(Array.from(text ?? '').length).toBeLessThanOrEqual(200);
      }
      const message = renderDigest(data, 'en', { text: 'none' });
      expect(message.title?.includes('\n')).toBe(false);
      expect(message.titleUrl).toBe('https://platform.example/solar-kiosk');
    }
  });
});

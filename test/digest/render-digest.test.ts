import { describe, expect, it } from 'vitest';
import { renderDigest } from '../../src/digest/index.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { aBlogPost, aProject, HOUR } from './campaign-fixtures.js';
import { campaign, de, digestOf, en, fieldItems, fieldValue, now, plain } from './helpers/digest-setup.js';

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
    // Lists are lists: bullets drawn by each platform (issue 23: the digest lists had none).
    expect(fieldItems(message, 'Rewards sold')).toEqual(['7× Sticker pack', '5× Dinner with the team']);
    expect(fieldItems(message, 'Sold out')).toEqual(['Dinner with the team']);
    expect(fieldValue(message, 'Wall')).toMatch(
      /^2 new posts; latest by Bob the Builder: “Go go go! @everyone/,
    );
    expect(fieldItems(message, 'Blog')).toEqual(['Backstage (supporters only)', 'We are halfway!']);
    expect(message.progress).toEqual({ current: 8_000, goal: 10_000, percent: 80, label: '80%' });
    expect(message.footer).toBe('As of Mar 10, 2026, 09:00 CET');
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
    expect(fieldItems(message, 'Verkaufte Dankeschöns')).toEqual([
      '7× Sticker pack',
      '5× Dinner with the team',
    ]);
    expect(fieldItems(message, 'Ausverkauft')).toEqual(['Dinner with the team']);
    expect(fieldValue(message, 'Pinnwand')).toMatch(
      /^2 neue Beiträge; zuletzt von Bob the Builder: „Go go go!/,
    );
    expect(fieldItems(message, 'Blog')).toEqual([
      'Backstage (nur für Unterstützer*innen)',
      'We are halfway!',
    ]);
    expect(message.footer).toBe('Stand: 10.03.2026, 09:00 MEZ');
  });

  it('shortens long lists with a count of the rest', async () => {
    const blog = Array.from({ length: 8 }, (_, i) => aBlogPost({ id: i + 1, at: now - (i + 1) * HOUR }));
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject(),
      blogPosts: blog,
    });
    const items = fieldItems(renderDigest(await digestOf(readModel), 'en'), 'Blog');
    expect(items).toHaveLength(6);
    expect(items?.at(-1)).toBe('… and 3 more');
  });

  it('keeps a hostile project slug out of the file name', async () => {
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ link_caption: '../../etc/passwd' }),
    });
    const message = renderDigest(await digestOf(readModel, '../../etc/passwd'), 'en');
    expect(message.image).toMatchObject({ filename: 'funding-etc-passwd-2026-03-10.png' });
  });
});

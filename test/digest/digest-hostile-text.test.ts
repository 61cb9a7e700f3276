import { describe, expect, it } from 'vitest';
import { renderDigest } from '../../src/digest/index.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { allHostileTexts } from '../support/hostile-text.js';
import { aBlogPost, aPoint, aProject, aReward, aWallPost, DAY, HOUR } from './campaign-fixtures.js';
import { digestOf, now } from './helpers/digest-setup.js';

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

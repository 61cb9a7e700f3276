import { describe, expect, test } from 'vitest';
import type { Locale } from '../../src/core/command-core.js';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { allText, allUrls } from '../support/core-fixture.js';
import { buildEvent, oneOfEveryEvent } from '../support/event-builders.js';
import { allHostileTexts, hostileTexts } from '../support/hostile-text.js';

const locales: Locale[] = ['en', 'de'];

describe('renderNotice', () => {
  test.each(locales)('renders every event type with a title in %s', (locale) => {
    for (const event of oneOfEveryEvent()) {
      const m = renderNotice(event, locale, 'UTC');
      expect(m.title, event.type).toBeTruthy();
      expect(m.private, event.type).toBeUndefined();
    }
  });

  test("supporter: name, the project's supporter count and total", () => {
    expect(allText(renderNotice(buildEvent.supporter(), 'en', 'UTC'))).toContain(
      '🎉 New supporter: Grace H.\nSupporter count now 123 · Total €12,345',
    );
    expect(allText(renderNotice(buildEvent.supporter(), 'de', 'UTC'))).toContain(
      '🎉 Neuer Unterstützer: Grace H.\nJetzt 123 Unterstützer · Insgesamt 12.345 €',
    );
  });

  test('supporter without a known total leaves the total out', () => {
    expect(renderNotice(buildEvent.supporter({ fundingTotal: null }), 'en', 'UTC').text).toBe(
      'Supporter count now 123',
    );
  });

  test('a figure not read in the same cycle is left out, never guessed (no "Supporter #n")', () => {
    const m = renderNotice(buildEvent.supporter({ fundingTotal: null, supporterCount: null }), 'en', 'UTC');
    expect(m.text).toBeUndefined();
    // An event stored in an outbox before supporterCount existed renders without it.
    const legacy = { ...buildEvent.supporter({ fundingTotal: null }), supporterNumber: 7 } as Record<
      string,
      unknown
    >;
    delete legacy['supporterCount'];
    expect(allText(renderNotice(legacy as never, 'en', 'UTC'))).not.toMatch(/#7|count/);
  });

  test('supporter burst: a few names and the rest counted', () => {
    const m = renderNotice(buildEvent.supporterBurst(), 'en', 'UTC');
    expect(m.title).toBe('🎉 12 new supporters');
    expect(m.text).toBe('Ada, Bob, Cleo and 9 more\nTotal €15,000');
    expect(allText(renderNotice(buildEvent.supporterBurst(), 'de', 'UTC'))).toContain(
      'Ada, Bob, Cleo und 9 weitere\nInsgesamt 15.000 €',
    );
    const exact = renderNotice(buildEvent.supporterBurst({ count: 3 }), 'en', 'UTC');
    expect(exact.text?.split('\n')[0]).toBe('Ada, Bob, and Cleo');
  });

  test('wall post: author and message as plain text; burst counts authors', () => {
    const m = renderNotice(buildEvent.wallPost(), 'en', 'UTC');
    expect(m.title).toBe('💬 New wall post by Ada L.');
    expect(m.text).toBe('Great idea, good luck!');
    const burst = renderNotice(buildEvent.wallPostBurst(), 'de', 'UTC');
    expect(burst.title).toBe('💬 4 neue Pinnwand-Einträge');
    expect(burst.text).toBe('Von Ada und Bob');
  });

  test('blog post: title, type, link, teaser; supporter-only gets a badge', () => {
    const m = renderNotice(buildEvent.blogPost(), 'en', 'UTC');
    expect(m.title).toBe('📝 New blog post: We are live!');
    expect(m.titleUrl).toBe('https://platform.example/solar-kiosk/blog/301');
    expect(m.links).toEqual([
      { label: 'Read the post', url: 'https://platform.example/solar-kiosk/blog/301' },
    ]);
    expect(m.text).toBe('The campaign has started.');
    expect(m.badge).toBeUndefined();
    const gated = renderNotice(buildEvent.blogPost({ supporterOnly: true, blogType: 'story' }), 'de', 'UTC');
    expect(gated.badge).toBe('nur für Unterstützer');
    expect(gated.fields?.[0]?.value).toBe('Story');
  });

  test('blog post with a non-http link gets no link', () => {
    const m = renderNotice(buildEvent.blogPost({ link: 'javascript:alert(1)' }), 'en', 'UTC');
    expect(allUrls(m)).toEqual([]);
  });

  test('milestone: percent, and goal-reached wording for all-or-nothing', () => {
    const half = renderNotice(buildEvent.milestone(), 'en', 'UTC');
    expect(half.title).toBe('🏁 50% of the funding goal reached');
    expect(half.progress?.percent).toBe(50);
    const goal = renderNotice(
      buildEvent.milestone({ percent: 100, goalReached: true, funding: 20_000 }),
      'en',
      'UTC',
    );
    expect(goal.title).toBe('🎯 Funding goal reached!');
    expect(goal.text).toContain('All-or-nothing goal reached: the project will be funded.');
    expect(renderNotice(buildEvent.milestone({ percent: 100, goalReached: true }), 'de', 'UTC').title).toBe(
      '🎯 Finanzierungsziel erreicht!',
    );
    expect(renderNotice(buildEvent.milestone(), 'de', 'UTC').title).toBe(
      '🏁 50 % des Finanzierungsziels erreicht',
    );
  });

  test('reward sold out and unlocked', () => {
    expect(allText(renderNotice(buildEvent.rewardSoldOut(), 'en', 'UTC'))).toContain(
      'Sold out: Sunny mug\nPrice €25',
    );
    expect(allText(renderNotice(buildEvent.rewardUnlocked(), 'de', 'UTC'))).toContain(
      '🔓 Freigeschaltet: Golden spoon\nPreis 250 €',
    );
  });

  test('project status in human words', () => {
    expect(renderNotice(buildEvent.projectStatus(), 'en', 'UTC').title).toBe(
      'Project status: Funding phase → Successfully funded',
    );
    expect(renderNotice(buildEvent.projectStatus({ from: null, to: 'payoff' }), 'de', 'UTC').title).toBe(
      'Projektstatus: Ausgezahlt',
    );
  });

  test('watching: funding of goal, progress and supporters', () => {
    const m = renderNotice(buildEvent.watching(), 'en', 'UTC');
    expect(m.title).toBe('👀 fundbot is now watching Solar Kiosk');
    expect(allText(m)).toContain('€12,345 of €20,000');
    expect(allText(renderNotice(buildEvent.watching(), 'de', 'UTC'))).toContain('12.345 € von 20.000 €');
  });

  describe('hostile text', () => {
    const hostileEvents = allHostileTexts.flatMap((text) => [
      buildEvent.supporter({ displayName: text }),
      buildEvent.supporterBurst({ displayNames: [text, text, text, text, text, text, text] }),
      buildEvent.wallPost({ author: text, message: text }),
      buildEvent.wallPostBurst({ authors: [text] }),
      buildEvent.blogPost({ title: text, teaser: text }),
      buildEvent.rewardSoldOut({ title: text }),
      buildEvent.rewardUnlocked({ title: text }),
      buildEvent.projectStatus({ from: text, to: text }),
      buildEvent.watching({ title: text }),
    ]);

    test('stays bounded: titles under 256, text under 1000 characters', () => {
      for (const event of hostileEvents) {
        for (const locale of locales) {
          const m = renderNotice(event, locale, 'UTC');
          expect(Array.from(m.title ?? '').length).toBeLessThanOrEqual(256);
          expect(Array.from(m.text ?? '').length).toBeLessThanOrEqual(1000);
        }
      }
    });

    test('never becomes a link', () => {
      for (const event of hostileEvents) {
        for (const url of allUrls(renderNotice(event, 'en', 'UTC'))) {
          expect(url).toBe('https://platform.example/solar-kiosk/blog/301');
        }
      }
    });

    test('loses zero-width, bidi and control characters; names stay on one line', () => {
      for (const event of hostileEvents) {
        const m = renderNotice(event, 'en', 'UTC');
        expect(allText(m)).not.toMatch(
          /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u0000-\u0009\u000b-\u001f\u009b]/,
        );
        expect(m.title).not.toContain('\n');
      }
    });

    test('a 5000-character wall post is shortened with an ellipsis', () => {
      const m = renderNotice(buildEvent.wallPost({ message: hostileTexts.long }), 'en', 'UTC');
      expect(m.text?.endsWith('…')).toBe(true);
      expect(Array.from(m.text ?? '').length).toBeLessThanOrEqual(500);
    });
  });
});

/**
 * The goal-pace alert and the roll-call through the real renderers (Slack Block Kit, Discord embed, console):
 * a roll-call's first message shows its whole first part of the names and says where the rest are, in English
 * and German, and the pace alert shows a range, never one figure.
 */
import { describe, expect, test } from 'vitest';
import { renderPaceAlert, renderRollCall, splitNames } from '../../src/core/index.js';
import { renderedEverywhere } from '../support/rendered-everywhere.js';

const since = Date.UTC(2026, 10, 23, 9);
const names = Array.from(
  { length: 80 },
  (_, i) => `Backer ${i + 1} of the Solar Kiosk crowd by the river Spree`,
);

describe('the campaign notices on every platform', () => {
  test('a long roll-call shows its whole first part of the names, the count of the rest and the total', () => {
    for (const locale of ['en', 'de'] as const) {
      const message = renderRollCall(
        {
          project: 'Solar Kiosk',
          currency: 'EUR',
          names,
          since,
          total: 4_650,
          gained: 900,
          supporters: 60,
          restIn: 'thread',
        },
        locale,
        'Europe/Berlin',
      );
      const first = splitNames(names, locale)[0] ?? [];
      expect(first.length).toBeLessThan(names.length);
      for (const [platform, text] of Object.entries(renderedEverywhere(message))) {
        for (const name of first) expect(text, `${platform} ${locale}`).toContain(name);
        expect(text).toContain(locale === 'en' ? '80 new supporters' : '80 neue Unterstützungen');
        expect(text).toContain(`${names.length - first.length}`);
        expect(text).toContain(locale === 'en' ? 'in the thread' : 'im Thread');
        expect(text).toMatch(/€4,650|4\.650/);
      }
    }
  });

  test('a pace alert gives the range and what the target needs', () => {
    const message = renderPaceAlert(
      {
        project: 'Solar Kiosk',
        currency: 'EUR',
        verdict: 'behind',
        reading: {
          target: { kind: 'goal', percent: 100 },
          targetAmount: 10_000,
          range: { low: 5_000.4, high: 7_499.6 },
          perDay: 250,
          neededPerDay: 600,
          supportersInWindow: 12,
        },
        endsAt: Date.UTC(2026, 11, 25),
        windowMs: 24 * 3_600_000,
      },
      'en',
      'UTC',
    );
    for (const text of Object.values(renderedEverywhere(message))) {
      expect(text).toContain('Behind the pace the goal needs');
      expect(text).toContain(
        'At the pace of the last 24 hours: €5,000–€7,500 by Dec 24, 2026 (needed: €10,000).',
      );
      expect(text).toContain(
        'It needs €600 a day from now on; the last 24 hours brought €250 a day from 12 supports.',
      );
    }
  });
});

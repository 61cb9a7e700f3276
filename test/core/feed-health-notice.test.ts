import { describe, expect, it } from 'vitest';
import { renderEmbed } from '../../src/adapters/discord/render-embed.js';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import type { FeedHealthEvent, FeedStop } from '../../src/domain/events.js';
import { holdFor, kindsOfStop, stepFeedHealth } from '../../src/domain/feed-health.js';
import { renderedEverywhere } from '../support/rendered-everywhere.js';

const t0 = Date.UTC(2026, 10, 29, 9, 5, 0);

/** The events the rule itself makes for `stop`: said after the hold, resumed 20 minutes later. */
function eventsOf(stop: FeedStop): { stopped: FeedHealthEvent; resumed: FeedHealthEvent } {
  const said = stepFeedHealth(
    'solar-kiosk',
    {},
    { stopped: [{ ...stop, since: t0 }], working: [] },
    t0 + holdFor(stop.cause),
  );
  const back = stepFeedHealth(
    'solar-kiosk',
    said.next,
    { stopped: [], working: [stop.subject] },
    t0 + 20 * 60_000,
  );
  const [stopped] = said.events;
  const [resumed] = back.events;
  if (stopped === undefined || resumed === undefined) throw new Error('the rule said nothing');
  return { stopped, resumed };
}

const stops: readonly FeedStop[] = [
  { subject: 'key', feed: 'all', cause: 'key-rejected' },
  { subject: 'key', feed: 'all', cause: 'key-rejected', connected: true },
  { subject: 'key', feed: 'all', cause: 'key-wrong-project' },
  { subject: 'scope:wall', feed: 'wall', cause: 'scope-missing', scope: 'wall:read' },
  { subject: 'api', feed: 'all', cause: 'unreachable' },
];

describe('feed-health notices, as Slack and Discord show them', () => {
  it.each(stops)(
    '$cause ($feed): what stopped, since when, why and who fixes it how, in English and German',
    (stop) => {
      const { stopped, resumed } = eventsOf(stop);
      const en = renderedEverywhere(renderNotice(stopped, 'en', 'Europe/Berlin'));
      const de = renderedEverywhere(renderNotice(stopped, 'de', 'Europe/Berlin'));
      expect(en.slack).not.toContain('⚠️ ⚠️'); // Slack marks the warning tone itself
      for (const shown of [en.slack, en.discord]) {
        expect(shown).toContain('solar-kiosk have stopped');
        expect(shown).toContain('10:05 CET'); // the stop's start on the channel's clock
        expect(shown).toMatch(/To fix:|Nothing to do here/);
      }
      for (const shown of [de.slack, de.discord]) {
        expect(shown).toContain('solar-kiosk sind gestoppt');
        expect(shown).toContain('10:05 MEZ');
        expect(shown).toMatch(/Abhilfe:|Hier ist nichts zu tun/);
      }
      const back = renderedEverywhere(renderNotice(resumed, 'en', 'UTC'));
      expect(back.slack).toContain('solar-kiosk are back');
      expect(back.slack).toMatch(/Stopped since .*09:05 UTC.*working again since .*09:25 UTC/);
      const zurück = renderedEverywhere(renderNotice(resumed, 'de', 'UTC'));
      expect(zurück.discord).toContain('läuft wieder seit');
    },
  );

  it('says who fixes it: the operator for a configured key, a workspace admin for a connected one, nobody for an outage', () => {
    const text = (stop: FeedStop) =>
      renderedEverywhere(renderNotice(eventsOf(stop).stopped, 'en', 'UTC')).slack;
    expect(text(stops[0] as FeedStop)).toContain("fundbot's operator puts it in fundbot's configuration");
    expect(text(stops[1] as FeedStop)).toContain('an admin of this workspace connects the project again');
    expect(text(stops[3] as FeedStop)).toContain('a project admin adds wall:read to the key');
    expect(text(stops[4] as FeedStop)).toContain('Nothing to do here');
  });

  it('names the stopped feed when one feed stopped, every notice when the project did; no ping, no link', () => {
    const wall = eventsOf(stops[3] as FeedStop).stopped;
    expect(renderedEverywhere(renderNotice(wall, 'en', 'UTC')).slack).toContain(
      'Wall notices of solar-kiosk',
    );
    expect(kindsOfStop(stops[3] as FeedStop)).toEqual(['wall']);
    // Only fundbot's words and the project's slug: nothing a platform would turn into a ping or a link.
    const embed = JSON.stringify(
      renderEmbed(renderNotice(eventsOf(stops[0] as FeedStop).stopped, 'en', 'UTC')),
    );
    expect(embed).not.toMatch(/@everyone|@here|<!|<@|https?:/);
  });
});

import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { buildDigest, renderDigest } from '../../src/digest/index.js';
import { aPoint, aProject } from '../digest/campaign-fixtures.js';
import { buildProject, t0 } from '../support/builders.js';
import { allText, createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { ManualClock } from '../support/manual-clock.js';
import { renderedEverywhere } from '../support/rendered-everywhere.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'C1' };
const minute = 60_000;

/** The real pipeline and core on one store and clock, posting to a recording Discord poster. */
async function setup(timeZone?: string, at = t0) {
  const clock = new ManualClock(at);
  const discord = new ScriptedPoster('discord', clock);
  const h = await startPipeline({ posters: [discord], clock, ...(timeZone ? { timeZone } : {}) });
  await h.subscribe(d1, ['supporters']);
  return { ...h, discord };
}

/** The title of a 10-minute batch holding one supporter who arrived at `at`, in a channel of `timeZone`. */
async function batchTitle(timeZone: string, at: number): Promise<string | undefined> {
  const f = await setup(timeZone, at);
  await f.pacing.setKind(d1, 'supporters', { mode: 'batched', intervalMs: 10 * minute });
  await f.offer(supporter(1, f.clock.now()));
  await f.advance(11 * minute);
  return f.discord.messages[0]?.message.title;
}

const supporter = (n: number, at: number) =>
  buildEvent.supporter({
    id: `solar-kiosk:supporter:k${n}`,
    displayName: `Fan ${n}`,
    supporterCount: 100 + n,
    fundingTotal: 10_000 + 10 * n,
    occurredAt: at,
    detectedAt: at,
  });

describe("times in messages are on the channel's clock, with the zone's name (issue 23)", () => {
  test('quiet hours 22:00-07:00 Europe/Berlin: the summary says "seit 22:00 MEZ … Stand 05:55 MEZ", not UTC', async () => {
    const f = await setup(undefined, Date.UTC(2026, 0, 15, 20, 0)); // 21:00 in Berlin
    await f.settings.setLocale(d1, 'channel', 'de');
    await f.pacing.setQuiet(d1, { startMinute: 22 * 60, endMinute: 7 * 60, timeZone: 'Europe/Berlin' });
    f.clock.set(Date.UTC(2026, 0, 15, 22, 30)); // 23:30 in Berlin: quiet
    await f.offer(supporter(1, f.clock.now()));
    f.clock.set(Date.UTC(2026, 0, 16, 4, 55)); // 05:55 in Berlin: the newest held supporter
    await f.offer(supporter(2, f.clock.now()));
    expect(f.discord.messages).toHaveLength(0);
    await f.advance(Date.UTC(2026, 0, 16, 6, 1) - f.clock.now()); // 07:01 in Berlin: quiet hours are over
    const summary = f.discord.messages[0]?.message;
    expect(summary?.title).toBe('🎉 2 neue Unterstützungen seit 22:00 MEZ');
    expect(allText(summary!)).toContain('Stand 05:55 MEZ: 102 Unterstützer*innen');
    for (const text of Object.values(renderedEverywhere(summary!))) {
      expect(text).toContain('seit 22:00 MEZ');
      expect(text).not.toMatch(/\b(21:00|04:55)\b/);
    }
  });

  test('a channel without quiet hours reads its times in the configured zone, with its name', async () => {
    expect(await batchTitle('America/New_York', Date.UTC(2026, 0, 15, 17, 10))).toBe(
      '🎉 1 new supporter since 12:10 EST',
    );
  });

  test('one English clock everywhere: the batch and the digest both write "since 17:10 UTC"', async () => {
    expect(await batchTitle('UTC', Date.UTC(2026, 2, 10, 17, 10))).toContain('since 17:10 UTC');

    const now = Date.UTC(2026, 2, 10, 22, 10);
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject({
      project: aProject({ current_funding: 300, supporter_count: 3 }),
      history: [aPoint(Date.UTC(2026, 2, 10, 17, 10), 100, 1)],
    });
    const data = await buildDigest({ readModel, project: 'solar-kiosk', now, locale: 'en', timeZone: 'UTC' });
    const digest = renderDigest(data, 'en');
    expect(digest.text).toContain('since 17:10 UTC');
    expect(digest.footer).toBe('As of Mar 10, 2026, 22:10 UTC');
  });

  test("/status names its times in the channel's zone", async () => {
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          status: {
            feeds: [],
            budget: {
              dayLimit: 100,
              dayRemaining: 50,
              dayResetAt: Date.UTC(2026, 0, 2),
              minuteRemaining: 10,
            },
            recentErrors: [],
            paused: null,
          },
        },
      ],
    });
    await f.run('quiet', { hours: '22:00-07:00', timezone: 'Europe/Berlin' }, { canAdminister: true });
    expect(allText(await f.run('status'))).toContain('resets Jan 2, 2026, 01:00 CET');
  });
});

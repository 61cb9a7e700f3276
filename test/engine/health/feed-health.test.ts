import { describe, expect, it } from 'vitest';
import type { FeedHealthEvent } from '../../../src/domain/events.js';
import { FEED_STOP_HOLD_MS } from '../../../src/domain/feed-health.js';
import { projectScopes } from '../../../src/simulator/index.js';
import { type EngineHarness, initialSupporters, runFor, step, useEngineHarness } from '../harness.js';

/**
 * Feed health (issue 32) on the real engine against the simulator, on a virtual clock: what the engine hands the
 * delivery pipeline when the key is revoked, restored, flaps, and across a restart on the same store.
 */
const startHarness = useEngineHarness();

const minute = 60_000;
const health = (hh: EngineHarness) => hh.recorder.ofType('feed-health');
const said = (events: readonly FeedHealthEvent[]) => events.map((e) => `${e.stop.subject} ${e.change}`);

describe('feed health on the engine', () => {
  it('a revoked key: said once after the hold, its resume once after the restore, the supporter meanwhile too', async () => {
    const h = await startHarness({ project: { supporters: initialSupporters(3) } });
    await step(h);
    h.sim.revokeKey(h.rawKey);
    const revokedAt = h.clock.now();
    await runFor(h, 2 * minute);
    expect(health(h)).toEqual([]);
    await runFor(h, 20 * minute);
    const stops = health(h);
    expect(said(stops)).toEqual(['key stopped']);
    const stop = stops[0] as FeedHealthEvent;
    expect(stop.stop.cause).toBe('key-rejected');
    // Said at the hold's end (the scheduler wakes for it), not at the next probe, and dated from the refusal.
    expect(stop.detectedAt - revokedAt).toBeGreaterThanOrEqual(FEED_STOP_HOLD_MS);
    expect(stop.detectedAt - revokedAt).toBeLessThan(FEED_STOP_HOLD_MS + 10_000);
    expect(stop.since).toBeGreaterThanOrEqual(revokedAt);
    expect(stop.kinds).toContain('supporters');
    h.project.addSupporter({ displayName: 'Meanwhile', amount: 5 });
    h.sim.restoreKey(h.rawKey);
    await runFor(h, 5 * minute);
    expect(said(health(h))).toEqual(['key stopped', 'key resumed']);
    expect(h.recorder.ofType('supporter').map((s) => s.displayName)).toContain('Meanwhile');
    await runFor(h, 30 * minute);
    expect(health(h)).toHaveLength(2);
    expect(new Set(health(h).map((e) => e.id)).size).toBe(2);
  });

  it('a key revoked for less than the hold says nothing', async () => {
    const h = await startHarness();
    await step(h);
    h.sim.revokeKey(h.rawKey);
    await runFor(h, 90_000);
    h.sim.restoreKey(h.rawKey);
    await runFor(h, 30 * minute);
    expect(h.engine.status()[0]?.paused).toBeNull();
    expect(health(h)).toEqual([]);
  });

  it('across a restart: a said stop is not said again, and its resume is said once by the new process', async () => {
    const h = await startHarness();
    await step(h);
    h.sim.revokeKey(h.rawKey);
    await runFor(h, 5 * minute);
    expect(said(health(h))).toEqual(['key stopped']);
    await h.engine.stop();
    h.engine = h.newEngine();
    await runFor(h, 20 * minute);
    expect(said(health(h))).toEqual(['key stopped']);
    // Restored while the bot is down: the new process's first cycle that gets through says the resume.
    await h.engine.stop();
    h.sim.restoreKey(h.rawKey);
    h.engine = h.newEngine();
    await runFor(h, 5 * minute);
    expect(said(health(h))).toEqual(['key stopped', 'key resumed']);
  });

  it('a scope removed from the key: the feed stop goes to its kind only, and its return is said', async () => {
    const h = await startHarness();
    await step(h);
    h.sim.setKeyScopes(
      h.rawKey,
      projectScopes.filter((s) => s !== 'wall:read'),
    );
    await runFor(h, 10 * minute);
    const stops = health(h);
    expect(said(stops)).toEqual(['scope:wall stopped']);
    expect(stops[0]?.kinds).toEqual(['wall']);
    expect(stops[0]?.stop.scope).toBe('wall:read');
    h.sim.setKeyScopes(h.rawKey, projectScopes);
    await runFor(h, 5 * minute);
    expect(said(health(h))).toEqual(['scope:wall stopped', 'scope:wall resumed']);
  });
});

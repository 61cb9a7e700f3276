import { describe, expect, it } from 'vitest';
import { commandCoreOver, initialSupporters, lc, step, useEngineHarness } from './harness.js';

const startHarness = useEngineHarness();

describe('/supporters through the real engine and the real command core', () => {
  it('a key without fundings:read answers that supporter data is off and names the scope to add', async () => {
    const h = await startHarness({
      scopes: ['project:read', 'incentives:read', 'blog:read', 'wall:read'],
      project: { supporters: initialSupporters(3) },
    });
    await step(h); // the fundings poll meets 403 insufficient_scope: the engine switches the feed off
    const { ask } = commandCoreOver(h);
    const requestsBefore = h.sim.requests.length;
    const answer = await ask('supporters');
    expect(answer).toContain(
      'Supporter data is off for this project: its API key lacks fundings:read. An admin can add that scope to the key.',
    );
    expect(answer).not.toContain('not answering');
    // The answer comes from the engine's state: no request is spent on a feed known to be off.
    expect(h.sim.requests.length).toBe(requestsBefore);
    await expect(h.engine.readModel.recentSupporters(lc, 5)).rejects.toMatchObject({
      code: 'feed_disabled',
      feed: 'fundings',
      scope: 'fundings:read',
    });
    const german = await ask('supporters', {}, { platformLocale: 'de' });
    expect(german).toContain('seinem API-Schlüssel fehlt fundings:read');
  });

  it('a project this deployment does not watch is a typed ProjectNotWatchedError', async () => {
    const h = await startHarness();
    await expect(h.engine.readModel.status('not-watched')).rejects.toMatchObject({
      code: 'project_not_watched',
      project: 'not-watched',
    });
  });
});

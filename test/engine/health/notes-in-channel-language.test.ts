import { describe, expect, it } from 'vitest';
import { projectScopes } from '../../../src/simulator/index.js';
import { buildContext } from '../../support/core-fixture.js';
import { commandCoreOver, type EngineHarness, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

/** The real core over the real engine's read model, its channel set to German. */
async function germanStatus(harness: EngineHarness): Promise<string> {
  const { settings, ask } = commandCoreOver(harness);
  const context = buildContext();
  await settings.setLocale(context.channel, 'channel', 'de');
  return ask('status', {}, context);
}

describe("the engine's notes reach a channel in its language (issue 23: German /status said 'the key … lacks wall:read')", () => {
  it('a switched-off feed and a failing poll, in German', async () => {
    const h = await startHarness({ scopes: projectScopes.filter((s) => s !== 'wall:read') });
    await step(h);
    h.sim.faults.unknownError({ path: /\/blog/, code: 'quantum_flux', status: 503, n: 5 });
    // The blog is read for its 300 s target (latency-bound.ts): one interval and its jitter.
    await runFor(h, 6 * 60_000);
    const text = await germanStatus(h);
    expect(text).toContain('abgeschaltet: dem API-Schlüssel fehlt wall:read: Pinnwand-Meldungen sind aus');
    expect(text).toContain('Blog: die Plattform hat mit einem Fehler geantwortet (HTTP 503)');
    // No English sentence of the engine is left, and the operator's log still has its English.
    expect(text).not.toMatch(/lacks|the platform|notices are off|answered/);
    expect(h.logger.warnings.join('\n')).toContain('lacks wall:read: wall notices are off');
  });
});

import { describe, expect, it } from 'vitest';
import { commandCoreOver, initialSupporters, lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

describe.each([
  // Probes every 30-50 s once backed off: 35 minutes are 40-70 of them; a key enabled again is seen within 50 s.
  { status: 401, code: 'invalid_api_key', probes: { fewest: 40, most: 70 }, resumeWithinMs: 60_000 },
  // A key of another project: one probe every 10 minutes (±25 %), only a new key fixes it.
  { status: 403, code: 'key_project_mismatch', probes: { fewest: 2, most: 5 }, resumeWithinMs: 13 * 60_000 },
])('a key rejected mid-run ($status $code)', ({ status, code, probes: { fewest, most }, resumeWithinMs }) => {
  it('pauses every feed with one clear error, probes at its pace, and resumes when the key works', async () => {
    const h = await startHarness({ project: { supporters: initialSupporters(5) } });
    await step(h);
    expect(h.engine.status()[0]?.paused).toBeNull();
    h.sim.faults.unknownError({ status, code, description: 'The key was rejected.', n: 100_000 });
    const pausedAt = h.clock.now();
    await runFor(h, 2 * 60_000);
    const paused = h.engine.status()[0]?.paused;
    expect(paused?.reason).toMatch(/API key/);
    expect(paused?.since).toBeGreaterThanOrEqual(pausedAt);

    const errors = h.logger.records.filter((r) => r.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain(`polling of ${lc} is paused`);
    expect(errors[0]?.msg).toMatch(/project administration( of solar-kiosk)? → API keys/);

    // 35 more minutes paused: probes at the pace of the reason (recheck-backoff.test.ts times them),
    // one request each, nothing else, and no second error log.
    const from = h.sim.requests.length;
    await runFor(h, 35 * 60_000);
    const probes = h.sim.requests.length - from;
    expect(probes).toBeGreaterThanOrEqual(fewest);
    expect(probes).toBeLessThanOrEqual(most);
    expect(h.logger.records.filter((r) => r.level === 'error')).toHaveLength(1);

    const statusNow = await h.engine.readModel.status(lc);
    expect(statusNow.recentErrors.map((e) => e.note.code).join()).toMatch(/key-(rejected|wrong-project)/);
    // A refresh while paused sends nothing and says why.
    const before = h.sim.requests.length;
    await expect(h.engine.readModel.reward(lc, 999, 0)).rejects.toMatchObject({ code: 'project_paused' });
    const stale = await h.engine.readModel.project(lc, 0);
    expect(stale.staleBecause?.code).toMatch(/key-(rejected|wrong-project)/);
    expect(h.sim.requests.length).toBe(before);
    const { ask } = commandCoreOver(h);
    const answer = await ask('reward', { id: 999 });
    expect(answer).toContain('the platform rejects its API key');
    // /status through the real engine and core names the pause, as /healthz does.
    expect(statusNow.paused?.reason).toEqual(stale.staleBecause);
    const statusAnswer = await ask('status');
    expect(statusAnswer).toContain('Polling paused since');

    h.sim.faults.clear(); // a working key again
    h.recorder.clear();
    h.project.addSupporter({ displayName: 'Back', amount: 3 });
    await runFor(h, resumeWithinMs);
    expect(h.engine.status()[0]?.paused).toBeNull();
    expect(h.logger.records.some((r) => r.level === 'info' && r.msg?.includes('accepted again'))).toBe(true);
    expect(h.recorder.ofType('supporter').map((s) => s.displayName)).toEqual(['Back']);
  });
});

describe('a key rejected while answering a command', () => {
  it('pauses the project too, so the next cycles send nothing but the probes', async () => {
    const h = await startHarness();
    await step(h);
    h.sim.faults.unknownError({ status: 401, code: 'invalid_api_key', n: 100_000 });
    h.clock.advance(1_000); // the cached project is now older than maxAgeMs 0
    const stale = await h.engine.readModel.project(lc, 0);
    expect(stale.staleBecause).toEqual({ code: 'read-failed', params: { failure: 'key-refused' } });
    expect(h.engine.status()[0]?.paused?.reason).toMatch(/rejected the API key/);
    const from = h.sim.requests.length;
    await runFor(h, 9 * 60_000);
    // Probes only (5, 10, 20 s, then every 30-50 s: 14-18 in 9 minutes), each one read of a list: the
    // project read could answer any key with the public view.
    const sent = h.sim.requests.slice(from);
    expect(sent.length).toBeGreaterThanOrEqual(12);
    expect(sent.length).toBeLessThanOrEqual(19);
    expect(sent.every((r) => r.path === `/project/${lc}/fundings` && r.status === 401)).toBe(true);
  });
});

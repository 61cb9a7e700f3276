/**
 * A key of another project (api-spec.md, Authentication rule 7; issue 29, "rule A4, regressed"): the project read
 * answers it with the public view (200, project endpoints rule 1) while every list refuses it with
 * `key_project_mismatch`. fundbot paused, resumed on the project read's 200 and paused again every ~5 s: 30
 * requests and 16 error lines in 75 s. Now it pauses with one error saying what to do, stays paused (one probe
 * of a list every 10 minutes) until the key changes, and a changed key is tried at once.
 */
import { describe, expect, it } from 'vitest';
import { parseProjectKey } from '../../../src/api/index.js';
import { KeyRing, withReplaceableKeys } from '../../../src/app/replaceable-keys.js';
import type { KeySource } from '../../../src/engine/index.js';
import { commandCoreOver, type EngineHarness, lc, runFor, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

/** The harness's engine on a key of another project, swappable as a key file swaps it. */
async function onForeignKey(keySource: KeySource) {
  const h = await startHarness();
  h.sim.createProject({ linkCaption: 'river-cleanup', title: 'River Clean-up', plan: 'pro' });
  const foreign = parseProjectKey(h.sim.issueProjectKey('river-cleanup'));
  const ring = new KeyRing();
  h.engine = h.newEngine({
    api: withReplaceableKeys(h.api, ring),
    projects: [{ linkCaption: lc, key: foreign, keySource }],
  });
  return { harness: h, ring, foreign };
}

/** Requests for the project per minute, from the start of the run. */
function perMinute(harness: EngineHarness, from: number): number[] {
  const minutes = new Map<number, number>();
  for (const r of harness.sim.requests.slice(from)) {
    if (!r.path.startsWith(`/project/${lc}`)) continue;
    const minute = Math.floor((r.at - harness.sim.requests[from]!.at) / 60_000);
    minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
  }
  return [...minutes.values()];
}

describe('a key of another project', () => {
  it('pauses the project with one error saying what to do, at most 2 requests a minute for 30 minutes', async () => {
    const { harness } = await onForeignKey({
      kind: 'configured',
      variable: 'SOLAR_KIOSK_API_KEY_FILE',
      watchedFile: true,
    });
    const from = harness.sim.requests.length;
    await runFor(harness, 30 * 60_000);
    expect(harness.engine.status()[0]?.paused?.reason).toMatch(/belongs to another project/);
    expect(Math.max(...perMinute(harness, from))).toBeLessThanOrEqual(2);
    // The refused first poll, then one probe every 10 minutes (±25 %).
    expect(harness.sim.requests.length - from).toBeLessThanOrEqual(6);
    const errors = harness.logger.records.filter((r) => r.level === 'error' || r.level === 'warn');
    expect(errors.map((e) => e.msg)).toEqual([expect.stringContaining(`polling of ${lc} is paused`)]);
    expect(errors[0]?.msg).toContain(`Put a Project API key of ${lc} in SOLAR_KIOSK_API_KEY_FILE`);
    expect(errors[0]?.msg).toContain('the file is read again without a restart');
    expect(harness.logger.records.some((r) => r.msg?.includes('accepted again'))).toBe(false);
    // Probes read a list, never the project read that answers any key with the public view.
    const probes = harness.sim.requests.slice(from + 2);
    expect(probes.every((r) => r.path !== `/project/${lc}` && r.status === 403)).toBe(true);
  });

  it('is replaced by the key of the project: tried at once, polling resumes and the supporter is announced', async () => {
    const { harness, ring, foreign } = await onForeignKey({
      kind: 'configured',
      variable: 'SOLAR_KIOSK_API_KEY_FILE',
      watchedFile: true,
    });
    await runFor(harness, 3 * 60_000);
    expect(harness.engine.status()[0]?.paused).not.toBeNull();
    ring.replace(foreign, harness.key);
    harness.engine.keyReplaced(lc);
    await runFor(harness, 1_000);
    expect(harness.engine.status()[0]?.paused).toBeNull();
    // The lists were never read with a key of this project: that first read is their baseline, and the next
    // supporter is announced.
    harness.project.addSupporter({ displayName: 'Right Key', amount: 5 });
    await runFor(harness, 60_000);
    expect(harness.recorder.ofType('supporter').map((s) => s.displayName)).toEqual(['Right Key']);
  });

  it('connected from chat: the message says to connect it again, never to replace a configured key', async () => {
    const { harness } = await onForeignKey({ kind: 'connected' });
    await runFor(harness, 5 * 60_000);
    const errors = harness.logger.records.filter((r) => r.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('was connected from chat');
    expect(errors[0]?.msg).toContain('connect command');
    expect(errors[0]?.msg).not.toMatch(/configured|restart|SOLAR_KIOSK/);
    // /status in the workspace's channel says who fixes it: an admin there, not the operator.
    const status = await commandCoreOver(harness).ask('status');
    expect(status).toContain('An admin connects the project again');
    expect(status).not.toContain('The operator must');
  });
});

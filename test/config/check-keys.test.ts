import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient, parseProjectKey } from '../../src/api/index.js';
import { checkProjectKeys, type KeyCheckProject } from '../../src/config/check-keys.js';
import type { Simulator } from '../../src/simulator/index.js';
import type { ProjectScope } from '../../src/simulator/types.js';
import { startKeyCheckSimulator } from '../support/key-check-simulator.js';
import { ManualClock } from '../support/manual-clock.js';

let sim: Simulator;
let api: ApiClient;

beforeAll(async () => {
  ({ sim, api } = await startKeyCheckSimulator());
});
afterAll(async () => {
  await api?.close();
  await sim?.close();
});

function project(linkCaption: string, rawKey: string, apiKeyEnv = 'SOLAR_KIOSK_API_KEY'): KeyCheckProject {
  return { linkCaption, apiKeyEnv, apiKey: parseProjectKey(rawKey) };
}

function keyWithout(...missing: ProjectScope[]): string {
  const all: ProjectScope[] = ['project:read', 'incentives:read', 'blog:read', 'fundings:read', 'wall:read'];
  return sim.issueProjectKey('solar-kiosk', { scopes: all.filter((s) => !missing.includes(s)) });
}

function requestsSince(start: number) {
  return sim.requests.slice(start);
}

describe('key check against the simulator', () => {
  it('is one request, the project read: the lists are left to their first poll', async () => {
    const before = sim.requests.length;
    const report = await checkProjectKeys({ api, projects: [project('solar-kiosk', keyWithout())] });
    expect(report).toEqual({
      projects: [
        {
          linkCaption: 'solar-kiosk',
          status: 'enabled',
          features: {
            project: 'on',
            supporters: 'unknown',
            wall: 'unknown',
            blog: 'unknown',
            rewards: 'unknown',
          },
          warnings: [],
        },
      ],
      enabled: ['solar-kiosk'],
      paused: [],
      warnings: [],
    });
    expect(requestsSince(before).map((r) => r.path)).toEqual(['/project/solar-kiosk']);
  });

  it('a key without a list scope passes: the first poll of that list finds it', async () => {
    const before = sim.requests.length;
    const report = await checkProjectKeys({
      api,
      projects: [project('solar-kiosk', keyWithout('wall:read', 'fundings:read'))],
    });
    expect(report.enabled).toEqual(['solar-kiosk']);
    expect(report.warnings).toEqual([]);
    expect(requestsSince(before)).toHaveLength(1);
  });

  it('a key of another project pauses the project after two requests: the read answers it with the public view, a list refuses it', async () => {
    const before = sim.requests.length;
    const riverKey = sim.issueProjectKey('river-cleanup');
    const report = await checkProjectKeys({ api, projects: [project('solar-kiosk', riverKey)] });
    expect(report.projects[0]?.status).toBe('paused');
    expect(report.enabled).toEqual([]);
    expect(report.paused).toEqual(['solar-kiosk']);
    expect(report.warnings).toEqual([
      'solar-kiosk is paused: the key in SOLAR_KIOSK_API_KEY belongs to another project: export the key of solar-kiosk there, or fix projects[].linkCaption; fundbot keeps it and tries the key again (a key file replaced is tried at once)',
    ]);
    expect(report.projects[0]?.rejected).toBe('key_project_mismatch');
    expect(requestsSince(before).map((r) => [r.path, r.status])).toEqual([
      ['/project/solar-kiosk', 200],
      ['/project/solar-kiosk/fundings', 403],
    ]);
  });

  it('a revoked key pauses the project and says to create a new one', async () => {
    const key = keyWithout();
    sim.revokeKey(key);
    const report = await checkProjectKeys({ api, projects: [project('solar-kiosk', key)] });
    expect(report.projects[0]?.status).toBe('paused');
    expect(report.warnings).toEqual([
      'solar-kiosk is paused: the key in SOLAR_KIOSK_API_KEY is invalid or was deleted: create a new Project API key for solar-kiosk (project administration → API keys) and export it in SOLAR_KIOSK_API_KEY; fundbot keeps it and tries the key again (a key file replaced is tried at once)',
    ]);
    expect(report.projects[0]?.rejected).toBe('invalid_api_key');
    expect(report.warnings.join()).not.toContain(key);
  });

  it('checks each project on its own: one bad key does not disable the others', async () => {
    const report = await checkProjectKeys({
      api,
      projects: [
        project('solar-kiosk', sim.issueProjectKey('river-cleanup')),
        project(
          'river-cleanup',
          sim.issueProjectKey('river-cleanup', { scopes: ['project:read', 'fundings:read'] }),
          'RIVER_KEY',
        ),
      ],
    });
    expect(report.projects.map((p) => p.status)).toEqual(['paused', 'enabled']);
    expect(report.projects[1]?.features.project).toBe('on');
    expect(report.enabled).toEqual(['river-cleanup']);
  });
});

describe('key check when the API is unreachable', () => {
  it('warns, keeps every project enabled with unverified features, and stops probing', async () => {
    // A port that was just free: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const offline = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0, timeoutMs: 2_000 });
    try {
      const report = await checkProjectKeys({
        api: offline,
        projects: [
          project('solar-kiosk', 'svc_proj_offlineKey0000000001'),
          project('river-cleanup', 'svc_proj_offlineKey0000000002', 'RIVER_KEY'),
        ],
        // One at a time: the project checked after the failure is not probed at all.
        concurrency: 1,
      });
      expect(report.enabled).toEqual(['solar-kiosk', 'river-cleanup']);
      expect(report.projects.map((p) => Object.values(p.features))).toEqual([
        ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
        ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
      ]);
      expect(report.warnings).toEqual([
        'solar-kiosk: the API is unreachable (ApiNetworkError); polling starts anyway and the engine retries',
        'river-cleanup: key not checked because the API was unreachable; polling starts anyway',
      ]);
    } finally {
      await offline.close();
    }
  });

  it('an aborted check leaves the remaining features unverified', async () => {
    const controller = new AbortController();
    controller.abort(new Error('start-up deadline'));
    const report = await checkProjectKeys({
      api,
      projects: [project('solar-kiosk', keyWithout())],
      signal: controller.signal,
    });
    expect(report.enabled).toEqual(['solar-kiosk']);
    expect(report.warnings).toEqual([
      'solar-kiosk: key check aborted before project:read was verified; polling starts anyway',
    ]);
  });
});

describe('a key without project:read, answered with the public view as the spec says', () => {
  it('is detected from the missing process_status and warned about with what to do', async () => {
    // The spec's API answers such a key with the public view; this proxy plays that part in front of
    // the simulator by asking for the project without a credential.
    const proxy = createServer((req, res) => {
      const isProject = /^\/project\/[^/?]+(\?|$)/.test(req.url ?? '');
      const headers: Record<string, string> = {};
      if (!isProject && typeof req.headers.authorization === 'string')
        headers.authorization = req.headers.authorization;
      void fetch(`${sim.url}${req.url}`, { headers }).then(async (answer) => {
        const body = await answer.text();
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = createApiClient({
      baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      clock: new ManualClock(Date.UTC(2026, 2, 1, 12)),
      maxRetries: 0,
    });
    try {
      const report = await checkProjectKeys({
        api: proxied,
        projects: [project('solar-kiosk', keyWithout())],
      });
      expect(report.warnings).toEqual([
        'the key for solar-kiosk gets only the public view of the project (no process_status): it seems to lack project:read, so the paid-out notice and the campaign dates are off. Create a key with project:read (project administration → API keys) and put it in SOLAR_KIOSK_API_KEY',
      ]);
      // The same key straight at the simulator (full view): no such warning.
      const direct = await checkProjectKeys({ api, projects: [project('solar-kiosk', keyWithout())] });
      expect(direct.warnings).toEqual([]);
    } finally {
      await proxied.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, parseProjectKey } from '../../src/api/index.js';
import { startKeyChecks, startupReport } from '../../src/app/start-key-checks.js';
import type { ProjectConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/ops/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startKeyCheckSimulator } from '../support/key-check-simulator.js';

let sim: Simulator;
let api: ApiClient;
let projects: ProjectConfig[];

beforeAll(async () => {
  ({ sim, api } = await startKeyCheckSimulator());
  const key = (linkCaption: string) => parseProjectKey(sim.issueProjectKey(linkCaption));
  projects = [
    {
      linkCaption: 'solar-kiosk',
      apiKeyEnv: 'SOLAR_KIOSK_API_KEY',
      apiKey: key('solar-kiosk'),
      milestones: [],
    },
    {
      linkCaption: 'river-cleanup',
      apiKeyEnv: 'RIVER_API_KEY',
      apiKey: key('river-cleanup'),
      milestones: [],
    },
    // Not on the platform: a key of another project cannot read it either, so the check finds it unreadable.
    { linkCaption: 'gone', apiKeyEnv: 'GONE_API_KEY', apiKey: key('solar-kiosk'), milestones: [] },
  ];
});
afterAll(async () => {
  await api?.close();
  await sim?.close();
});

const projectReads = (since: number) => sim.requests.slice(since).map((r) => r.path);

describe('startKeyChecks', () => {
  it('checks every project at once in one process', async () => {
    const before = sim.requests.length;
    const checks = startKeyChecks({ api, projects, logger: silentLogger });
    expect(await checks.ready('solar-kiosk')).toBe(true);
    expect(await checks.ready('gone')).toBe(false);
    expect(checks.isDisabled('gone')).toBe(true);
    // The read of the check is handed to the first poll once; an unreadable project has none.
    expect(checks.takeCheckedRead('solar-kiosk')?.link_caption).toBe('solar-kiosk');
    expect(checks.takeCheckedRead('solar-kiosk')).toBeUndefined();
    expect(checks.takeCheckedRead('gone')).toBeUndefined();
    expect((await checks.settled()).projects).toHaveLength(3);
    expect(projectReads(before).sort()).toEqual([
      '/project/gone',
      '/project/river-cleanup',
      '/project/solar-kiosk',
    ]);
  });

  it('on replicas checks a project when this replica takes it, once', async () => {
    const before = sim.requests.length;
    const checks = startKeyChecks({ api, projects, logger: silentLogger, start: 'when-held' });
    expect((await checks.settled()).projects).toEqual([]);
    checks.check(['river-cleanup']);
    checks.check(['river-cleanup']);
    expect(await checks.ready('river-cleanup')).toBe(true);
    expect((await checks.settled()).enabled).toEqual(['river-cleanup']);
    expect(projectReads(before)).toEqual(['/project/river-cleanup']);
  });

  it('on replicas judges the configuration on every project only when none this replica holds can be read', async () => {
    const all = projects.map((p) => p.linkCaption);
    const readableHeld = startKeyChecks({ api, projects, logger: silentLogger, start: 'when-held' });
    readableHeld.check(['solar-kiosk']);
    expect((await startupReport(readableHeld, all)).projects.map((p) => p.linkCaption)).toEqual([
      'solar-kiosk',
    ]);

    const unreadableHeld = startKeyChecks({ api, projects, logger: silentLogger, start: 'when-held' });
    unreadableHeld.check(['gone']);
    const report = await startupReport(unreadableHeld, all);
    expect(report.projects.map((p) => p.linkCaption).sort()).toEqual([
      'gone',
      'river-cleanup',
      'solar-kiosk',
    ]);
    expect([...report.enabled].sort()).toEqual(['river-cleanup', 'solar-kiosk']);

    const nothingHeld = startKeyChecks({ api, projects, logger: silentLogger, start: 'when-held' });
    expect((await startupReport(nothingHeld, all)).projects).toEqual([]);
  });
});

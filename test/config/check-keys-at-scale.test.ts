import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  createApiClient,
  type ProjectApi,
  type ProjectKey,
  parseProjectKey,
} from '../../src/api/index.js';
import {
  checkProjectKeys,
  KEY_CHECK_CONCURRENCY,
  type ProjectKeyStatus,
} from '../../src/config/check-keys.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { recordingLogger } from '../support/recording-logger.js';

const count = 48;
const captions = Array.from({ length: count }, (_, i) => `project-${i}`);
let sim: Simulator;
let api: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ projects: captions.map((linkCaption) => ({ linkCaption })) });
  api = createApiClient({ baseUrl: sim.url, maxRetries: 0 });
});
afterAll(async () => {
  await api?.close();
  await sim?.close();
});

const projects = () =>
  captions.map((linkCaption) => ({
    linkCaption,
    apiKeyEnv: 'KEY',
    apiKey: parseProjectKey(sim.issueProjectKey(linkCaption)),
  }));

/** The client, counting requests in flight (the real requests still go to the simulator). */
function counting(inner: ApiClient): { api: ApiClient; maxInFlight: () => number } {
  let inFlight = 0;
  let max = 0;
  const track =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      inFlight += 1;
      max = Math.max(max, inFlight);
      try {
        return await call(...args);
      } finally {
        inFlight -= 1;
      }
    };
  const project = (lc: string, key: ProjectKey): ProjectApi => {
    const p = inner.project(lc, key);
    return {
      ...p,
      get: track(p.get.bind(p)),
      fundingsPage: track(p.fundingsPage.bind(p)),
      wallPage: track(p.wallPage.bind(p)),
      blogPage: track(p.blogPage.bind(p)),
      incentivesPage: track(p.incentivesPage.bind(p)),
    };
  };
  return { api: { ...inner, project } as ApiClient, maxInFlight: () => max };
}

describe('key checks of many projects at start-up', () => {
  it('run side by side but never more requests at once than KEY_CHECK_CONCURRENCY, and tell each project as it is done', async () => {
    const { api: counted, maxInFlight } = counting(api);
    const order: string[] = [];
    const report = await checkProjectKeys({
      api: counted,
      projects: projects(),
      onChecked: (s: ProjectKeyStatus) => order.push(s.linkCaption),
    });
    expect(report.enabled).toEqual(captions);
    expect(order.sort()).toEqual([...captions].sort());
    expect(maxInFlight()).toBeGreaterThan(1);
    expect(maxInFlight()).toBeLessThanOrEqual(KEY_CHECK_CONCURRENCY);
  });

  it('a slow answer costs only its own project its timeout: unverified, polling starts anyway', async () => {
    sim.faults.slow({ path: '/project/project-3', n: 1, delayMs: 10_000 });
    const started = Date.now();
    const logger = recordingLogger();
    const report = await checkProjectKeys({ api, projects: projects(), timeoutMs: 500, logger });
    expect(Date.now() - started).toBeLessThan(8_000);
    const slow = report.projects.find((p) => p.linkCaption === 'project-3');
    expect(slow?.status).toBe('enabled');
    expect(slow?.warnings.join(' ')).toContain('polling starts anyway');
    expect(report.projects.filter((p) => p.features.project === 'on')).toHaveLength(count - 1);
    // The log at info: the slow project's warning, then one line for the whole batch, not one a project.
    const info = logger.records.filter((r) => r.level !== 'debug');
    expect(info.map((r) => [r.level, r.msg ?? ''])).toEqual([
      ['warn', expect.stringContaining('project-3')],
      ['info', 'key checks done'],
    ]);
    expect(info[1]?.fields).toEqual({
      checked: count,
      enabled: count,
      paused: [],
      disabled: [],
      unverified: 1,
    });
    // Each project's own result stays at debug.
    expect(logger.records.filter((r) => r.level === 'debug' && r.msg === 'key check')).toHaveLength(count);
  });
});

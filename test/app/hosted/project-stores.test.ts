/**
 * A project disconnected from chat is forgotten from every store that keeps its data (issue 31 item 4, issue 30):
 * the stores are one list (src/app/project-stores.ts), built by the real wiring on a SQLite file; each is seeded
 * for two projects, the one is forgotten, and the whole file is then read from outside: no key names it and no
 * value holds its supporter's name, while the other project keeps everything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/index.js';
import { forgetProject } from '../../../src/app/project-stores.js';
import { wireFundbot } from '../../../src/app/wire-fundbot.js';
import { createCampaignCheckStore } from '../../../src/digest/index.js';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { seededRandom } from '../../../src/lib/random.js';
import { openStore } from '../../../src/lib/store.js';
import { noopMetrics, silentLogger } from '../../../src/ops/index.js';
import { buildEvent } from '../../support/event-builders.js';
import { ManualClock } from '../../support/manual-clock.js';
import { allStoreKeys } from '../../support/store-keys.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const channel = { platform: 'slack', workspaceId: 'T0HOST', channelId: 'C0GENERAL' } as const;
const supporter = (project: string, name: string, at: number): FundbotEvent =>
  buildEvent.supporter({
    id: `supporter:${project}`,
    project,
    occurredAt: at,
    detectedAt: at,
    displayName: name,
    supporterCount: null,
    fundingTotal: null,
    entryKey: `key-${project}`,
  });

it('forgets a disconnected project in every per-project store, and nothing of it stays in the store', async () => {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-project-stores-'));
  const file = join(dir, 'store.sqlite');
  const storeUrl = `sqlite://${file}`;
  const store = await openStore(storeUrl);
  const clock = new ManualClock();
  const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', clock });
  const wiring = wireFundbot({
    api,
    store,
    clock,
    random: seededRandom(31),
    logger: silentLogger,
    metrics: noopMetrics,
    version: 'test',
    projects: [],
    defaultLocale: 'en',
    digestTimeZone: 'UTC',
  });
  // A store added later that keeps data by project must be added to the list, and to this test.
  expect(wiring.projectStores.map((s) => s.name)).toEqual([
    'engine state',
    'roll-call journal',
    'campaign checks',
  ]);

  const checks = createCampaignCheckStore(wiring.campaignStore);
  for (const [project, name] of [
    ['solar-kiosk', 'Amélie Secret'],
    ['river-cleanup', 'Bruno Kept'],
  ] as const) {
    // The engine's state as it commits it (wire-fundbot namespaces the engine's keys under engine/).
    await store.set(`engine/engine/${project}/head`, { lists: { fundings: { cursor: 1 } } });
    await wiring.rollCallJournal.record(project, [supporter(project, name, clock.now())]);
    await checks.setPaceState(project, channel, {
      targetPercent: 100,
      deadline: 1,
      verdict: 'behind',
      alerts: 1,
    });
    await checks.setRollCallCursor(project, channel, { period: 'weekly-2026-11-23', cut: 1 });
  }

  // Each store held something of the project and removed it.
  for (const projectStore of wiring.projectStores) {
    expect(await projectStore.forget('solar-kiosk'), projectStore.name).toBeGreaterThan(0);
  }
  expect(await forgetProject(wiring.projectStores, 'solar-kiosk')).toBe(0);
  await wiring.delivery.stop();
  await store.close();

  const keys = await allStoreKeys(storeUrl);
  expect(keys.filter((k) => k.includes('solar-kiosk'))).toEqual([]);
  expect(keys.filter((k) => k.includes('river-cleanup'))).toHaveLength(4);
  const db = new Database(file, { readonly: true });
  try {
    const holding = (text: string) => db.prepare('SELECT key FROM kv WHERE value LIKE ?').all(`%${text}%`);
    expect(holding('Amélie')).toEqual([]);
    expect(holding('Bruno Kept')).toHaveLength(1);
  } finally {
    db.close();
  }
  await api.close();
});

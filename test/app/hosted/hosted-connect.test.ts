/**
 * Issue 30: a connect checks what it promises. The key is tried on every feed fundbot will poll before anything
 * is said or stored, and a new project's baseline is read and committed before "watches it from now on" goes
 * out, so the supporter right after the answer is announced. What a connect costs is counted here.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostedProjects, type RunningHostedProjects } from '../../../src/app/hosted/hosted-projects.js';
import { openStore } from '../../../src/lib/store.js';
import { createTokenCipher } from '../../../src/lib/token-cipher.js';
import { silentLogger } from '../../../src/ops/index.js';
import {
  announcedSupporterKeys,
  type EngineHarness,
  fundingKeyOf,
  lc,
  runFor,
  seed,
  startEngineHarness,
} from '../../engine/harness.js';
import { allStoreKeys } from '../../support/store-keys.js';

const workspace = { platform: 'slack', workspaceId: 'T0HOST' } as const;
let h: EngineHarness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function setUp(): Promise<{ harness: EngineHarness; hosted: RunningHostedProjects; storeUrl: string }> {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-hosted-connect-'));
  const storeUrl = `sqlite://${join(dir, 'store.sqlite')}`;
  const harness = await startEngineHarness({ project: { supporters: [] }, store: await openStore(storeUrl) });
  h = harness;
  await harness.engine.stop();
  harness.engine = harness.newEngine({ projects: [] });
  harness.sim.createProject(seed({ linkCaption: 'river-cleanup', title: 'River' }));
  // The platform as measured: another project's key gets the project page's public view, only lists refuse it.
  harness.sim.otherKeyProjectPage = 'public-view';
  const hosted = createHostedProjects({
    store: harness.store,
    cipher: createTokenCipher(randomBytes(32)),
    api: harness.api,
    engine: harness.engine,
    projectStores: [{ name: 'engine state', forget: (project) => harness.engine.forgetState(project) }],
    configured: () => [],
    limit: 3,
    clock: harness.clock,
    logger: silentLogger,
  });
  return { harness, hosted, storeUrl };
}

const connect = (hosted: RunningHostedProjects, apiKey: string, linkCaption = lc) =>
  hosted.connect({ workspace, linkCaption, apiKey, by: 'Admin' });

describe('hosted connect (issue 30)', () => {
  it('refuses another project key, a revoked key, a User key and a key without fundings:read: nothing stored or polled', async () => {
    const { harness, hosted, storeUrl } = await setUp();
    const { sim } = harness;
    const revoked = sim.issueProjectKey(lc);
    sim.revokeKey(revoked);
    const cases = [
      { key: sim.issueProjectKey('river-cleanup'), reason: 'key-other-project', requests: 5 },
      { key: revoked, reason: 'key-rejected', requests: 5 },
      { key: sim.issueUserKey(7, { scopes: ['project:read'] }), reason: 'user-key', requests: 0 },
      {
        key: sim.issueProjectKey(lc, {
          scopes: ['project:read', 'wall:read', 'blog:read', 'incentives:read'],
        }),
        reason: 'scope-missing',
        requests: 5,
      },
    ];
    for (const c of cases) {
      const before = sim.requests.length;
      const outcome = await connect(hosted, c.key);
      expect(outcome).toMatchObject({ kind: 'refused', reason: c.reason });
      expect(sim.requests.length - before).toBe(c.requests);
    }
    expect(await connect(hosted, cases[3]!.key)).toMatchObject({ missingScopes: ['fundings:read'] });
    const before = sim.requests.length;
    await runFor(harness, 10 * 60_000);
    expect(sim.requests.length).toBe(before);
    expect(harness.engine.readModel.watchedProjects()).toEqual([]);
    // Only the store's own bookkeeping: no hosted record, no index, no engine state.
    expect((await allStoreKeys(storeUrl)).filter((k) => !k.startsWith('hosted/index-lock'))).toEqual([]);
  });

  it('reads the baseline before it answers: the supporter right after it is announced; counts the requests', async () => {
    const { harness, hosted } = await setUp();
    const { sim } = harness;
    for (let i = 0; i < 30; i += 1) harness.project.addSupporter({ displayName: `Before ${i}` });
    const before = sim.requests.length;
    const outcome = await connect(hosted, sim.issueProjectKey(lc));
    expect(outcome).toMatchObject({ kind: 'connected', featuresOff: [] });
    const requests = sim.requests.slice(before).map((r) => r.path.replace(`/project/${lc}`, '') || '/');
    // 5 probes (one entry each), then the first cycle: rewards, fundings, wall, both blog lists. The project
    // read of the probe is the first cycle's.
    expect(requests.sort()).toEqual(
      [
        '/',
        '/blog',
        '/fundings',
        '/incentives',
        '/wall',
        '/blog',
        '/blog',
        '/fundings',
        '/incentives',
        '/wall',
      ].sort(),
    );
    // The answer came after the baseline was committed: the next supporter is new to whoever polls.
    const next = harness.project.addSupporter({ displayName: 'Right After The Answer' });
    await runFor(harness, 60_000);
    expect(announcedSupporterKeys(harness.recorder.events)).toEqual([fundingKeyOf(next)]);
    expect(hosted.linkCaptions()).toEqual([lc]);
  });

  it('a disconnect deletes the stored state; a new connect then starts from its own baseline', async () => {
    const { harness, hosted, storeUrl } = await setUp();
    const { sim } = harness;
    expect(await connect(hosted, sim.issueProjectKey(lc))).toMatchObject({ kind: 'connected' });
    await runFor(harness, 30_000);
    // The harness engine writes the store as is (wire-fundbot namespaces it under engine/).
    expect((await allStoreKeys(storeUrl)).some((k) => k.startsWith(`engine/${lc}/`))).toBe(true);
    expect(await hosted.disconnect(workspace, lc)).toBe(true);
    const left = await allStoreKeys(storeUrl);
    expect(left.filter((k) => k.includes(lc) || k.startsWith('hosted/projects'))).toEqual([]);

    // Supporters while nobody watched are not announced by the next connect ("from now on").
    harness.project.addSupporter({ displayName: 'While Disconnected' });
    expect(await connect(hosted, sim.issueProjectKey(lc))).toMatchObject({ kind: 'connected' });
    const after = harness.project.addSupporter({ displayName: 'After Reconnect' });
    await runFor(harness, 60_000);
    expect(announcedSupporterKeys(harness.recorder.events)).toEqual([fundingKeyOf(after)]);
  });
});

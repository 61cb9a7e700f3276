/**
 * The digest on the real pipeline: the simulator serves a campaign over HTTP,
 * the real API client and engine poll it on a ManualClock and keep the funding
 * history, and the digest is built from the engine's read model.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApiClient, parseProjectKey } from '../../src/api/index.js';
import { buildDigest, renderDigest } from '../../src/digest/index.js';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { memoryStore } from '../../src/lib/store.js';
import { type ProjectSeed, startSimulator } from '../../src/simulator/index.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { ManualClock } from '../support/manual-clock.js';

const HOUR = 60 * 60 * 1000;
const linkCaption = 'digest-demo';

/**
 * The simulator serving the one campaign (`project` adds its goal and rewards) and the real engine polling it on
 * `clock`, nothing delivered; both stopped when the test ends.
 */
async function startCampaign(
  clock: ManualClock,
  project: Omit<ProjectSeed, 'linkCaption' | 'title' | 'currency'>,
) {
  const sim = closeAfterTest(
    await startSimulator({
      clock,
      projects: [{ linkCaption, title: 'Digest Demo', currency: 'EUR', ...project }],
    }),
  );
  const api = createApiClient({ baseUrl: sim.url, clock, random: seededRandom(1) });
  const engine = createEngine({
    api,
    store: memoryStore(),
    clock,
    random: seededRandom(2),
    projects: [{ linkCaption, key: parseProjectKey(sim.issueProjectKey(linkCaption)) }],
    deliver: async () => {},
  });
  onTestFinished(() => engine.stop());
  return { project: sim.project(linkCaption), engine };
}

/** The campaign's digest now, as a channel in Berlin gets it. */
const digestNow = (engine: Engine, clock: ManualClock) =>
  buildDigest({
    readModel: engine.readModel,
    project: linkCaption,
    now: clock.now(),
    locale: 'en',
    timeZone: 'Europe/Berlin',
  });

describe('digest from the engine read model', () => {
  it('reports the last 24 hours of a simulated campaign polled by the real engine', async () => {
    const start = Date.UTC(2026, 2, 7, 8, 0);
    const clock = new ManualClock(start);
    const { project, engine } = await startCampaign(clock, {
      fundingThreshold: 1_000,
      rewards: [
        { id: 1, title: 'Mug', price: 50, quantityTotal: 3 },
        { id: 2, title: 'Secret sticker', price: 10, status: 'hidden' },
      ],
    });

    // Three days, polled every 2 hours: 200 on day one, 150 (one mug) on day two,
    // 450 (two mugs, one hidden sticker, and a plain support) in the last 24 hours.
    const script: Record<number, () => void> = {
      2: () => project.addSupporter({ amount: 100 }),
      10: () => project.addSupporter({ amount: 100 }),
      30: () => project.addSupporter({ amount: 150, rewardIds: [1] }),
      50: () => project.addSupporter({ amount: 150, rewardIds: [1, 1, 2] }),
      60: () => {
        project.addSupporter({ amount: 300 });
        project.addWallPost({ authorName: 'Ada', message: '<b>Nearly</b> there!' });
      },
    };
    for (let hour = 0; hour < 72; hour += 2) {
      script[hour]?.();
      await engine.runDue();
      clock.advance(2 * HOUR);
    }
    await engine.runDue();

    const data = await digestNow(engine, clock);
    expect(data.funding).toMatchObject({ current: 800, goal: 1_000, supporters: 5 });
    expect(data.change).toMatchObject({ funding: 450, supporters: 2 });
    expect(data.milestones).toEqual([50, 75]);
    expect(data.rewardsSold).toEqual([{ title: 'Mug', sold: 2 }]);
    expect(data.soldOut).toEqual([{ title: 'Mug' }]);
    expect(data.wall).toMatchObject({ count: 1, latest: { message: 'Nearly there!' } });
    expect(data.chart.points.length).toBeGreaterThan(3);
    expect(data.pace.kind).toBe('eta');
  });

  it('on the first day counts only what happened since the bot started, and says since when', async () => {
    const start = Date.UTC(2026, 2, 7, 8, 0); // 09:00 in Berlin
    const clock = new ManualClock(start);
    const { project, engine } = await startCampaign(clock, {
      fundingThreshold: 10_000,
      rewards: [{ id: 1, title: 'Early-bird kiosk kit', price: 50 }],
    });
    // The campaign ran before the bot: 37 kits sold by 37 supporters.
    for (let i = 0; i < 37; i++) project.addSupporter({ amount: 50, rewardIds: [1] });
    for (let hour = 0; hour < 6; hour++) {
      if (hour === 3) {
        for (let i = 0; i < 3; i++) project.addSupporter({ amount: 50, rewardIds: [1] });
        project.addSupporter({ amount: 20 });
      }
      await engine.runDue();
      clock.advance(HOUR);
    }
    await engine.runDue();

    const data = await digestNow(engine, clock);
    expect(data.change).toMatchObject({ funding: 170, supporters: 4 });
    expect(data.rewardsSold).toEqual([{ title: 'Early-bird kiosk kit', sold: 3 }]);
    expect(data.window.full).toBe(false);
    expect(data.window.sinceMs).toBeGreaterThanOrEqual(start);
    expect(data.window.sinceMs).toBeLessThan(start + HOUR);
    const message = renderDigest(data, 'de');
    expect(message.text).toMatch(/ von 4 Unterstützer\*innen seit 09:0\d MEZ\.$/);
  });
});

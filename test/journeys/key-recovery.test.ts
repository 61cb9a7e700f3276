/**
 * Journey (issue 29, item 5): a key that stops working and comes back, and a key of another project, on
 * the compiled entry (`node dist/src/main.js`, as the image runs it) with Slack over HTTP, driven only from
 * outside: the simulator's key controls, signed slash commands, the Slack fake's channel, the bot's log lines
 * and /healthz.
 *
 * How long the outage is, and why this one stands for 10 minutes: the bot's re-checks of a refused key depend on
 * how many were refused, never on how long ago the refusal was (`backoffMs(recheckBackoff, probes)` in
 * src/engine/key-pause.ts): 5, 10, 20 s, and from the third refused probe on every wait is drawn from the same
 * 30-50 s, for ever. So the outage here lasts until the bot has been refused four probes (about 75-95 s), which
 * puts it in the state it is in after any longer outage, and the key is restored right after a refusal, the worst
 * moment (the next probe is a whole wait away). The same journey with a real 10-minute outage:
 * `JOURNEY_KEY_OUTAGE_MS=600000 npx vitest run test/journeys/key-recovery.test.ts` (13 minutes of wall time, not
 * run by `npm test`).
 */
import { beforeAll, describe, expect } from 'vitest';
import { waitUntil } from '../support/wait-until.js';
import { type BotProcess, startBotProcess } from './harness/bot-process.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { journeyHooks } from './harness/journey-hooks.js';
import { journeyProject } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { type SlackDriver, startSlackDriver } from './harness/slack-driver.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

/** Configured with a key of `keyOwner`: a key of another project. */
const misconfigured = 'river-cleanup';
const keyOwner = 'tree-planting';
/** At least this long the key stays revoked; by default only until the bot's re-checks are at their steady pace. */
const outageMs = Number(process.env.JOURNEY_KEY_OUTAGE_MS ?? 0);
/** The first poll's refusal, then this many refused probes: the wait after the third is the steady one. */
const refusedProbes = 4;

let world: JourneyWorld;
let driver: SlackDriver;
let bot: BotProcess;
let opsPort: number;
let startedAt: number;

beforeAll(async () => {
  world = await startJourneyWorld('key-recovery');
  world.sim.createProject({ linkCaption: misconfigured, title: 'River Clean-up', plan: 'pro' });
  world.sim.createProject({ linkCaption: keyOwner, title: 'Tree Planting', plan: 'pro' });
  driver = await startSlackDriver('http');
  opsPort = await world.freePort();
});
journeyHooks(() => ({ bot, driver, world }));

/** Requests the simulator answered for `project` (any of its paths) since `since`. */
const requestsOf = (project: string, since: number) =>
  world.sim.requests.filter(
    (r) => r.at >= since && (r.path === `/project/${project}` || r.path.startsWith(`/project/${project}/`)),
  );

/** The most requests for `project` in any 60 s window since `since`. */
function busiestMinute(project: string, since: number): number {
  const times = requestsOf(project, since).map((r) => r.at);
  return Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 60_000).length));
}

/** Log lines at warn or error that name `project`. */
const problemsSaidAbout = (project: string) =>
  bot
    .logLines()
    .filter((l) => (l.level === 'warn' || l.level === 'error') && JSON.stringify(l).includes(project));

describe('journey: a key that stops working, and a key of another project', () => {
  journeyStep(
    'fundbot runs both projects; the one configured with a key of another project is paused at once',
    undefined,
    async () => {
      const config = world.writeConfig({
        api: { baseUrl: world.sim.url },
        store: { url: world.storeUrl },
        projects: [
          { linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
          { linkCaption: misconfigured, apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
        ],
        ...(await driver.configSection()),
        digest: { enabled: false },
        http: { enabled: true, port: opsPort },
      });
      startedAt = Date.now();
      bot = startBotProcess({
        name: 'fundbot (key recovery)',
        entry: compiledEntry(),
        cwd: world.dir,
        env: {
          FUNDBOT_CONFIG: config,
          SOLAR_KIOSK_API_KEY: world.apiKey,
          RIVER_CLEANUP_API_KEY: world.sim.issueProjectKey(keyOwner),
          ...driver.env(),
        },
      });
      await driver.connected(bot);
      const subscribed = await driver.command('subscribe', [journeyProject], { admin: true }).answer();
      expect(subscribed.text).toContain('This channel now gets supporters');
      await driver.command('pacing', ['supporters', 'live'], { admin: true }).answer();
      const paused = await bot.waitForLog(
        (l) => l.level === 'error' && String(l.msg).includes(`polling of ${misconfigured} is paused`),
        'the pause of the misconfigured project',
      );
      expect(paused.msg).toContain('belongs to another project');
      expect(paused.msg).toContain(`Put a Project API key of ${misconfigured} in RIVER_CLEANUP_API_KEY`);
      const health = await fetch(`http://127.0.0.1:${opsPort}/healthz`);
      expect(await health.text()).toContain(misconfigured);
    },
    60_000,
  );

  journeyStep(
    `a key revoked ${outageMs > 0 ? `for ${outageMs / 60_000} minutes` : 'until its re-checks are at their steady pace'} and restored: the first notice within 60 s of the restore`,
    undefined,
    async () => {
      const revokedAt = Date.now();
      world.sim.revokeKey(world.apiKey);
      await bot.waitForLog(
        (l) => l.level === 'error' && String(l.msg).includes(`polling of ${journeyProject} is paused`),
        'the pause of the revoked key',
      );
      // A supporter funds while the key is refused: the notice the restore must bring.
      world.project.addSupporter({ displayName: 'Patient Backer', amount: 40 });
      const refused = () => requestsOf(journeyProject, revokedAt).filter((r) => r.status === 401);
      await waitUntil(
        `${refusedProbes} refused probes`,
        () => refused().length >= 1 + refusedProbes && Date.now() - revokedAt >= outageMs,
        { timeoutMs: outageMs + 150_000 },
      );
      // Restored right after a refusal: the worst moment, the next probe a whole wait away.
      world.sim.restoreKey(world.apiKey);
      const restoredAt = Date.now();
      const times = refused().map((r) => r.at);
      const lastWait = (times.at(-1) ?? 0) - (times.at(-2) ?? 0);
      // The bot was at its steady pace: the last wait was one of the 30-50 s ones (plus the request's latency).
      expect(lastWait).toBeGreaterThanOrEqual(29_000);
      expect(lastWait).toBeLessThanOrEqual(52_000);
      await waitUntil(
        'the held supporter announced after the restore',
        () => driver.posts().some((p) => p.text.includes('Patient Backer')),
        { timeoutMs: 70_000 },
      );
      const seenAfterMs = Date.now() - restoredAt;
      console.info(`key-recovery journey: first notice ${seenAfterMs} ms after the restore`);
      expect(seenAfterMs).toBeLessThanOrEqual(60_000);
      expect(
        bot
          .logLines()
          .some((l) => String(l.msg).includes(`the API key for ${journeyProject} is accepted again`)),
      ).toBe(true);
      // One error for the whole outage, however many probes it took.
      expect(problemsSaidAbout(journeyProject)).toHaveLength(1);
    },
    outageMs + 240_000,
  );

  journeyStep(
    'the project with the key of another project stayed paused: at most 2 requests in any minute, said once',
    undefined,
    async () => {
      expect(Date.now() - startedAt).toBeGreaterThan(90_000);
      expect(busiestMinute(misconfigured, startedAt)).toBeLessThanOrEqual(2);
      // The start-up check's project read and list read; then one list read every 10 minutes (±25 %).
      expect(requestsOf(misconfigured, startedAt).length).toBeLessThanOrEqual(
        2 + Math.ceil((Date.now() - startedAt) / (7.5 * 60_000)),
      );
      expect(problemsSaidAbout(misconfigured)).toHaveLength(1);
      expect(bot.logLines().some((l) => String(l.msg).includes(`${misconfigured} is accepted again`))).toBe(
        false,
      );
      const { code } = await bot.stop('SIGTERM');
      expect(code).toBe(0);
    },
  );
});

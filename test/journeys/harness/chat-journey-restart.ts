/**
 * The chat journey's restart: SIGTERM while a batch and a quiet-hours summary are held, things happening while
 * fundbot is down, and a second start on the same store: the catch-up and the API drift at once; at the next full
 * minute the held batch, the quiet-hours summary and the day's digest (its time set to that minute), each once. Last, the checks that span the whole journey: nothing posted twice, no
 * secret in any log line or message, every log line JSON, no personal data read.
 */
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.js';
import { type ChatDriver, isPng } from './chat-driver.js';
import {
  type ChatJourneyOptions,
  type ChatJourneyState,
  postsWith,
  startFundbot,
  waitForPost,
} from './chat-journey-state.js';
import { journeyProject, journeyTitle, seededNames, seededWallMessage } from './journey-project.js';
import { localHourMinute } from './journey-world.js';
import { repeatedKeys } from './json-lines.js';
import { journeyStep } from './known-defects.js';

const heldBacker = { displayName: 'Held Backer', amount: 25 };
/** Posted live in the main channel, held in the second one, whose quiet hours are on. */
const quietWallPost = { authorName: 'Quiet Neighbour', message: 'Posted during the quiet hours' };
const downtimeWallPosts = Array.from({ length: 12 }, (_, i) => ({
  authorName: `Neighbour ${i + 1}`,
  message: `Posted while fundbot was down (${i + 1})`,
}));

export function registerRestartSteps<D extends ChatDriver>(
  state: ChatJourneyState<D>,
  options: ChatJourneyOptions<D>,
): void {
  journeyStep(
    "SIGTERM while a batch and a quiet-hours summary are held: fundbot exits 0 within Docker's 10 s",
    undefined,
    async () => {
      const { driver, world } = state;
      // Quiet hours and the batch window both end at the next full minute: leave 15 s to hold within this one.
      await waitUntil('a minute with 15 s left', () => Date.now() % 60_000 < 45_000, { timeoutMs: 20_000 });
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      const hours = `${localHourMinute(minute, state.timeZone)}-${localHourMinute(minute + 60_000, state.timeZone)}`;
      state.found.quietStartedAt = minute;
      const quiet = driver.command('quiet', [hours, state.timeZone], {
        admin: true,
        channel: driver.otherChannel,
      });
      expect((await quiet.answer()).text).toContain('Ruhezeit');
      const set = await driver.command('pacing', ['supporters', 'batched', '1'], { admin: true }).answer();
      expect(set.text).toContain('batched every 1 min');
      const addedAt = Date.now();
      state.found.heldBackerAddedAt = addedAt;
      world.project.addSupporter(heldBacker);
      world.project.addWallPost(quietWallPost);
      // The polls that read them have been answered: their cycles are in flight or done.
      const answered = (feed: string) =>
        world.sim.requests.some(
          (r) => r.at >= addedAt && r.path === `/project/${journeyProject}/${feed}` && r.status === 200,
        );
      await waitUntil('the polls after the new entries', () => answered('fundings') && answered('wall'), {
        timeoutMs: 10_000,
      });
      const bot = state.bot;
      state.found.linesBeforeShutdown = bot.logLines().length;
      const { code, ms } = await bot.stop('SIGTERM');
      expect(code, 'exit code').toBe(0);
      expect(ms).toBeLessThan(8_500);
      expect(bot.logLines().some((l) => l.msg === 'shutdown complete')).toBe(true);
    },
    30_000,
  );

  journeyStep(
    'the shutdown with a batch held logs no error (the store stays open until the batch is safe)',
    undefined,
    async () => {
      const shutdownLines = state.bot.logLines().slice(state.found.linesBeforeShutdown);
      const errors = shutdownLines.filter((l) => l.level === 'error' || l.level === 'fatal');
      expect(errors.map((l) => l.msg)).toEqual([]);
    },
  );

  journeyStep(
    'restarts on the same store after a dozen wall posts and a change of the API description',
    undefined,
    async () => {
      for (const post of downtimeWallPosts) state.world.project.addWallPost(post);
      state.world.sim.setOpenApiVariant('field-added');
      // The digest comes due the minute the held batch and the quiet hours end, after the channel subscribed:
      // posted by the schedule, or on start if the restart came later.
      await startFundbot(state, {
        entry: options.entry(),
        digestTime: localHourMinute(state.found.quietStartedAt! + 60_000, state.timeZone),
        name: `${options.name} (restart)`,
      });
    },
    100_000,
  );

  journeyStep(
    'what happened while fundbot was down is announced: 12 wall posts as one notice',
    undefined,
    async () => {
      const burst = await waitForPost(state.driver, '💬 12 new wall posts', 'the wall burst notice', 20_000);
      expect(burst.text).toMatch(/By Neighbour \d+, Neighbour \d+/);
      expect(postsWith(state.driver, 'Posted while fundbot was down')).toEqual([]);
    },
  );

  journeyStep('the wall burst counts the authors it does not name ("and N more")', undefined, async () => {
    const burst = postsWith(state.driver, '💬 12 new wall posts')[0]!;
    const shown = burst.text.match(/Neighbour \d+/g) ?? [];
    const more = Number(/and (\d+) more/.exec(burst.text)?.[1] ?? 0);
    expect(shown.length + more).toBe(12);
  });

  journeyStep("a change of the platform's /openapi.json is logged at warn", undefined, async () => {
    const line = await state.bot.waitForLog(/openapi\.json\) changed/, 'the API drift warning', 15_000);
    expect(line.level).toBe('warn');
  });

  journeyStep(
    'the held batch is posted once after the restart, as a reply in the same daily thread (no second parent)',
    undefined,
    async () => {
      const { driver, found } = state;
      // The 1-minute window ends at the next full minute; the first poll after it posts the batch.
      const batch = await waitForPost(driver, heldBacker.displayName, 'the held batch', 75_000);
      expect(batch.text).toMatch(/🎉 1 new supporter since \d{1,2}:\d\d/);
      state.found.heldBatch = batch;
      expect(batch.threadOf).toBe(found.threadParent?.id);
      expect(postsWith(driver, heldBacker.displayName)).toHaveLength(1);
      // The restart found the day's thread in the store: no second parent.
      expect(postsWith(driver, '🎉 Supporters on')).toHaveLength(1);
    },
    90_000,
  );

  journeyStep(
    'the quiet hours of the second channel end: what they held is posted there as one summary, in German',
    undefined,
    async () => {
      const { driver } = state;
      const summary = await waitUntil(
        'the quiet-hours summary',
        () =>
          driver.posts().find((p) => p.channel === driver.otherChannel && p.text.includes('Quiet Neighbour')),
        { timeoutMs: 75_000 },
      );
      expect(summary.text).toContain('Während der Ruhezeit gesammelt');
      // One post, or thirteen when the restart came before the quiet hours ended (the downtime's dozen joins it).
      expect(summary.text).toMatch(
        /💬 (1 neuer Pinnwand-Beitrag|13 neue Pinnwand-Beiträge) seit \d{1,2}:\d\d/,
      );
      state.found.quietSummary = summary;
      // The main channel, without quiet hours, had it live.
      const live = postsWith(driver, `💬 New wall post by ${quietWallPost.authorName}`);
      expect(live.map((p) => p.channel)).toEqual([driver.channel]);
    },
    90_000,
  );

  journeyStep(
    'the digest is posted once at its time (by the schedule, or at start when it came due while down), with its chart PNG',
    undefined,
    async () => {
      // Either the digest reaches the channel, or fundbot logs that posting it failed (the step then fails at once).
      const digest = await waitUntil(
        'the daily digest',
        () => {
          const failed = state.bot.logLines().find((l) => l.msg?.startsWith('digest: posting failed'));
          if (failed) throw new Error(`fundbot logged: ${JSON.stringify(failed)}`);
          return postsWith(state.driver, `Daily digest: ${journeyTitle}`)[0];
        },
        { timeoutMs: 80_000 },
      );
      expect(digest.channel).toBe(state.driver.channel);
      expect(digest.files.some(isPng), 'the chart as a PNG').toBe(true);
      expect(postsWith(state.driver, `Daily digest: ${journeyTitle}`)).toHaveLength(1);
    },
    90_000,
  );

  journeyStep(
    'the quiet-hours summary says since when on the clock of the zone the quiet hours were set in',
    undefined,
    async () => {
      const since = /seit (\d{1,2}:\d\d)/.exec(state.found.quietSummary?.text ?? '')?.[1];
      const local = localHourMinute(state.found.quietStartedAt!, state.timeZone);
      expect(since?.replace(/^0/, '')).toBe(local.replace(/^0/, ''));
    },
  );

  journeyStep(
    'the held batch states the figures it read, "as of HH:MM: supporter count N · total €X"',
    undefined,
    async () => {
      expect(state.found.heldBatch?.text).toMatch(
        /as of \d{1,2}:\d\d(?: [A-Z][\w+:-]*)?: supporter count [\d,]+ · total €[\d,]+/,
      );
    },
  );

  journeyStep(
    "the held batch's window start is written on the clock of the configured time zone (or names its zone)",
    undefined,
    async () => {
      const { found } = state;
      const since = /since (\d{1,2}:\d\d)(?: ([A-Z]{3,4}|GMT[+-]\d+))?/.exec(found.heldBatch?.text ?? '');
      const windowStart = Math.floor(found.heldBackerAddedAt! / 60_000) * 60_000;
      const local = localHourMinute(windowStart, state.timeZone).replace(/^0/, '');
      expect(since?.[2] !== undefined || since?.[1]?.replace(/^0/, '') === local, `since ${since?.[0]}`).toBe(
        true,
      );
    },
  );

  journeyStep(
    'a change of project status is announced as "Project status: Funding phase → …", naming the status once',
    undefined,
    async () => {
      state.world.project.setStatus('finished');
      const notice = await waitForPost(state.driver, 'Project status: Funding phase →', 'the status notice');
      expect(notice.text.match(/status/gi)).toHaveLength(1);
    },
  );

  journeyStep(
    'SIGTERM again exits 0; over the whole journey every notice reached the channel once, nothing old was announced, no secret and no personal data went anywhere',
    undefined,
    async () => {
      const { driver, world } = state;
      const { code } = await state.bot.stop('SIGTERM');
      expect(code).toBe(0);
      const posts = driver.posts();
      // Every message carries its delivery's id (Discord nonce, Slack metadata); a file share cannot.
      expect(posts.filter((p) => p.shape !== 'file' && p.deliveryKey === undefined)).toEqual([]);
      const keys = posts.flatMap((p) => (p.deliveryKey ? [p.deliveryKey] : []));
      expect(
        keys.filter((k, i) => keys.indexOf(k) !== i),
        'delivery keys posted twice',
      ).toEqual([]);
      // The first run's baseline: nothing that was there before fundbot started is announced.
      for (const name of [...seededNames, seededWallMessage]) {
        expect(
          posts.filter((p) => p.text.includes(name)),
          name,
        ).toEqual([]);
      }
      const secrets = [world.apiKey, ...driver.secrets];
      for (const bot of state.bots) {
        for (const secret of secrets) expect(bot.output(), `${bot.name} output`).not.toContain(secret);
        // Logs are JSON lines, one key once per line.
        const lines = bot
          .stdout()
          .split('\n')
          .filter((l) => l.trim() !== '');
        for (const line of lines) {
          expect(() => JSON.parse(line), line).not.toThrow();
          expect(repeatedKeys(line), line).toEqual([]);
        }
      }
      for (const secret of secrets) expect(driver.recordedText()).not.toContain(secret);
      // The key only ever travels as Authorization: Bearer, never in a URL.
      expect(JSON.stringify(world.sim.requests.map((r) => r.query))).not.toContain('svc_');
      expect(world.sim.requests.some((r) => r.credential === 'project')).toBe(true);
      expect(world.sim.requests.filter((r) => r.credential === 'invalid')).toEqual([]);
      // Personal data is never read: no order, subscriber or address list was requested.
      expect(world.sim.requests.filter((r) => /\/(orders|subscribers)\b/.test(r.path))).toEqual([]);
    },
  );
}

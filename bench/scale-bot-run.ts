/**
 * `scale` (and `scale3000`): the REAL bot, the compiled entry point the image runs, serving `projects` projects
 * (each with its own Pro key) on its default store (a SQLite file), its chat adapter on the Slack fake with a
 * channel subscribed for every project (in its store before the start, bench/scale-subscribe.ts), the ops server on and logging at info, against the simulator in a
 * process of its own that holds 1% of the requests for 5 s and adds supporters on the real clock (so the
 * delivery pipeline posts). Measured only from outside:
 *
 * - `firstPollAllMs`: from the spawn until the simulator had answered every feed of every project once;
 * - `cpuPct`, `rssMb`: /proc/<pid> of the bot (bench/proc-sample.ts); CPU over the steady window of `steadyS`
 *   seconds (from 10 s after the first polls); RSS at its peak over the whole run (VmHWM);
 * - the fundings read interval the simulator saw in the steady window, and the bot's own memory figures and
 *   request ceiling from `/metrics` at its end.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { freePort } from '../test/support/redis-server.js';
import { benchAppDir } from './compiled-children.js';
import { ProcWatch, residentBreakdown } from './proc-sample.js';
import { startScaleBot } from './scale-bot.js';
import { readBotMetrics } from './scale-bot-metrics.js';
import { offsetToAfterMidnight, startScaleSimulator } from './scale-sim.js';
import { scaleAdminUserId, seedSubscriptions } from './scale-subscribe.js';
import { waitUntil } from './wait-until.js';

export interface BotScaleOptions {
  readonly projects: number;
  /** The steady window's length (at least 120 s for the figures). */
  readonly steadyS: number;
  /** New supporters a minute over all projects (default 60: one a second). */
  readonly supportersPerMinute?: number;
  /** Config sections over the bench's (e.g. `engine`). */
  readonly config?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, string>>;
  /** How long the first polls may take before the run gives up on them (default 180 s). */
  readonly firstPollDeadlineMs?: number;
}

const botToken = 'xoxb-bench-scale';
const signingSecret = 'bench-scale-signing-secret';
/** After the first polls, before the steady window: the last first polls' writes and posts settle. */
const settleMs = 10_000;

/** What `scale` (and `scale3000`) hold in the JSON line. */
export interface BotScaleFigures {
  /** `compiled`: `node dist/src/main.js`, the image's command. */
  readonly entry: 'compiled';
  readonly projects: number;
  /** From the spawn until the simulator had answered every feed of every project once. */
  readonly firstPollAllMs: number;
  /** CPU of the bot process over the steady window, in % of one core. */
  readonly cpuPct: number;
  /** Peak resident set size of the bot process over the whole run (VmHWM). */
  readonly rssMb: number;
  /** The steady window's length. */
  readonly steadyS: number;
  /** p95 of the gaps between two fundings reads of a project in the steady window, all projects. */
  readonly fundingsIntervalP95Ms: number;
  /** API requests a second the simulator answered in the steady window (all projects, hedged copies included). */
  readonly apiRequestsPerSecond: number;
  /**
   * What the bot said of its polling ceiling at the end: its /metrics (size, the keys' pace, whether it binds),
   * its /healthz `polling-ceiling` detail, and how many warn lines of its log said the ceiling sets the pace.
   */
  readonly ceiling: {
    readonly perSecond: number;
    readonly keysPerSecond: number;
    readonly binds: boolean;
    readonly healthDetail: string;
    readonly warnLines: number;
  } | null;
}

export async function measureBotScale(
  options: BotScaleOptions,
): Promise<{ scale: BotScaleFigures; details: Record<string, unknown> }> {
  const log = (message: string) =>
    process.stderr.write(
      `bench:scale(${options.projects}) ${new Date().toISOString().slice(11, 19)} ${message}\n`,
    );
  const count = options.projects;
  const appDir = await benchAppDir();
  const offsetMs = offsetToAfterMidnight();
  const sim = await startScaleSimulator(count, offsetMs, {
    realClock: true,
    supportersPerMinute: options.supportersPerMinute ?? 60,
  });
  const slack = await startFakeSlack({
    botToken,
    users: [{ id: scaleAdminUserId, team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const dir = await mkdtemp(join(tmpdir(), `fundbot-scale-${count}-`));
  const [opsPort, slackPort] = [await freePort(), await freePort()];
  const storeUrl = `sqlite://${join(dir, 'data', 'fundbot.sqlite')}`;
  await mkdir(join(dir, 'data'));
  await seedSubscriptions(storeUrl, count);
  const bot = startScaleBot({
    appDir,
    dir,
    simUrl: sim.url,
    keys: sim.keys,
    storeUrl,
    slack: { apiUrl: slack.apiUrl, port: slackPort, botToken, signingSecret },
    opsPort,
    ...(options.config ? { config: options.config } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const watch = new ProcWatch(await bot.pid(), 250);
  let keep = false;
  try {
    const runningAt = await bot.running;
    const deadline = options.firstPollDeadlineMs ?? 180_000;
    await waitUntil(
      'the first polls of every project',
      async () => (await sim.stats()).fullyPolled >= count,
      {
        timeoutMs: deadline,
        log,
      },
    );
    const first = await sim.stats();
    const firstPollAllMs = first.fullyPolled === count ? first.lastFullAt - bot.spawnedAt : -1;
    const atFirstPolls = watch.sample();
    log(`first polls: ${first.fullyPolled}/${count} in ${firstPollAllMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const postsBefore = slack.callsTo('chat.postMessage').length;
    const from = watch.sample();
    const simAtFrom = await sim.stats();
    log(`steady window: ${options.steadyS} s`);
    await new Promise((resolve) => setTimeout(resolve, options.steadyS * 1000));
    const to = watch.sample();
    const metrics = await readBotMetrics(bot.opsUrl);
    const healthDetail = await readCeilingDetail(bot.opsUrl);
    const resident = residentBreakdown(watch.pid);
    const intervals = await sim.fundingsIntervals(from?.at ?? 0, to?.at ?? Date.now());
    const simStats = await sim.stats();
    if (from === undefined || to === undefined || atFirstPolls === undefined)
      throw new Error('the bot process could not be sampled (/proc)');
    const steadyS = Math.round((to.at - from.at) / 1000);
    const figures: BotScaleFigures = {
      entry: 'compiled',
      projects: count,
      firstPollAllMs,
      cpuPct: watch.cpuPct(from, to),
      rssMb: watch.peakRssMb(),
      steadyS,
      fundingsIntervalP95Ms: intervals.p95,
      apiRequestsPerSecond: Math.round(((simStats.requests - simAtFrom.requests) / steadyS) * 10) / 10,
      ceiling: metrics.ceiling
        ? {
            ...metrics.ceiling,
            healthDetail,
            warnLines: countLines(await readFile(join(dir, 'bot.log'), 'utf8'), ceilingWarning),
          }
        : null,
    };
    return {
      scale: figures,
      details: {
        runningMs: runningAt - bot.spawnedAt,
        firstPollCpuMs: Math.round(atFirstPolls.cpuMs),
        projectsFullyPolled: first.fullyPolled,
        rssMbAtFirstPolls: Math.round(atFirstPolls.rssBytes / 104_857.6) / 10,
        steadyPeakRssMb: watch.peakRssMb(from.at),
        rssMbAtEnd: Math.round(to.rssBytes / 104_857.6) / 10,
        memoryAtEnd: { ...metrics.memory, resident },
        fundingsIntervalMs: intervals,
        supportersAdded: simStats.supportersAdded,
        repliesInWindow: Object.fromEntries(
          Object.entries(simStats.replies).map(([k, v]) => [k, v - (simAtFrom.replies[k] ?? 0)]),
        ),
        postsInWindow: slack.callsTo('chat.postMessage').length - postsBefore,
        logLines: bot.logged().lines,
        logBytes: bot.logged().bytes,
        simulatorCpuMs: simStats.cpuMs,
        slowedRequests: simStats.slowed,
      },
    };
  } catch (error) {
    keep = true;
    log(`--- bot log tail ---\n${bot.tail().slice(-4_000)}`);
    throw error;
  } finally {
    watch.stop();
    await bot.stop();
    await slack.close();
    sim.stop();
    if (keep || process.argv.includes('--keep-logs')) log(`bot log and store kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

/** The words of the bot's warn line when its polling ceiling, not the keys, sets the pace. */
const ceilingWarning = 'polling ceiling sets the pace, not the keys';

function countLines(text: string, containing: string): number {
  return text.split('\n').filter((line) => line.includes(containing) && line.includes('"level":"warn"'))
    .length;
}

/** The `polling-ceiling` detail of the bot's /healthz ('' when it has none, or did not answer within 30 s). */
async function readCeilingDetail(opsUrl: string): Promise<string> {
  try {
    const response = await fetch(`${opsUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
    const health = (await response.json()) as { checks?: Record<string, { detail?: string }> };
    return health.checks?.['polling-ceiling']?.detail ?? '';
  } catch {
    // A process saturated at 3,000 projects on a loaded machine answered /healthz after more than 10 s.
    return '';
  }
}

/**
 * `npm run bench:replicas`, hosted section (issue 24): three REAL replicas (src/main.ts) in Slack OAuth mode with
 * hosted.enabled on one redis-server; 50 workspaces install fundbot through the real install flow, each connects
 * its own project through the connect form (a signed view_submission, each to the next replica), subscribes its
 * own channel and paces supporters live. Supporters arrive on every project over the run; mid-run one replica is
 * SIGKILLed and started again. Figures, from ground truth (the simulator and the Slack fake):
 *
 * - `duplicates`: event ids posted more than once in a workspace's channel (0);
 * - `misses`: supporters whose notice never reached their workspace's channel (0);
 * - `isolationViolations`: notices posted into another workspace's channel or with another workspace's token (0);
 * - `failoverMs`: the longest one of the killed replica's projects went unpolled;
 * - `spread`: projects per replica at the end (51: 50 connected + the operator's);
 * - `firstSupporterMissed` (issue 30): of the 50 supporters who funded 200 ms after their project's "watches it
 *   from now on", those never announced (0: the baseline is read before the answer);
 * - `wrongKeyAccepted`: another project's key answered "connected" (every tenth workspace tries one first; 0);
 * - `userKeyReadsPerMinute`: the owner's User key read by the 3 replicas, against one process alone on the same
 *   key (`details.userKeyReadsPerMinuteOneProcess`): one reader per fleet, so at most 1.1x.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSubscriptionStore } from '../../src/core/index.js';
import { systemClock } from '../../src/lib/clock.js';
import { openStore } from '../../src/lib/store.js';
import { startSimulator } from '../../src/simulator/index.js';
import { type FakeWorkspace, startFakeSlackOAuth } from '../../test/fakes/slack/fake-slack-oauth.js';
import { installWorkspace } from '../../test/slack/oauth-browser.js';
import { redisUnavailableReason, startRedisServer } from '../../test/support/redis-server.js';
import { waitUntil } from '../../test/support/wait-until.js';
import {
  type ArrivedSupporter,
  allPolledSince,
  eventIdOf,
  longestUnpolledMs,
  medianFundingsIntervalMs,
  missedSupporters,
} from './ground-truth.js';
import { connectWorkspaces } from './hosted-connects.js';
import { heldProjects, type ReplicaProcess, startReplicaProcess } from './replica-process.js';
import { writeReplicaSlots } from './replica-slots.js';

const workspaceCount = 50;
const replicaCount = 3;
export const leaseTtlMs = 3_000;
const perMinute = 60;
const arrivalEveryMs = 100;
const signingSecret = 'bench-hosted-signing-secret';
const operatorProject = 'operator-project';
/** Every tenth workspace pastes another project's key first. */
const wrongKeyEvery = 10;
/** How long the User key's reads are counted, for one process and for the fleet. */
const userKeyWindowMs = 60_000;
/** The User key's day sized for a read about every 1.5 s until the UTC day's end (90% of it spent). */
const userKeyDay = () => Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1_500 / 0.9);

const log = (message: string) =>
  process.stderr.write(`bench:replicas hosted ${new Date().toISOString().slice(11, 23)} ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `check` holds, looking every 200 ms; a look that throws counts as not yet. */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  waitUntil(what, check, { timeoutMs, everyMs: 200, onProbeError: 'retry' });

const pad = (n: number) => String(n).padStart(2, '0');
const workspaces: (FakeWorkspace & { project: string; channel: string; admin: string })[] = Array.from(
  { length: workspaceCount },
  (_, i) => ({
    teamId: `T0WS${pad(i)}`,
    name: `Workspace ${i}`,
    admins: [`U0ADMIN${pad(i)}`],
    admin: `U0ADMIN${pad(i)}`,
    project: `team-${pad(i)}`,
    channel: `C0WS${pad(i)}`,
  }),
);

/** The hosted section's figures (one JSON object on stdout, after the main section's line). */
export async function runHostedSection(): Promise<void> {
  const unavailable = redisUnavailableReason();
  if (unavailable !== undefined) {
    log(`skipped: ${unavailable}`);
    return;
  }
  const started = Date.now();
  const redis = await startRedisServer();
  const projects = workspaces.map((w) => w.project);
  const sim = await startSimulator({
    seed: 24,
    projects: [...projects, operatorProject].map((linkCaption) => ({
      linkCaption,
      title: linkCaption,
      currency: 'EUR',
    })),
    limits: { pro: { perMinute, perDay: 1_000_000 }, user: { perMinute: 60, perDay: userKeyDay() } },
    // As the platform was measured (issue 30): another project's key gets the project page's public view.
    otherKeyProjectPage: 'public-view',
  });
  const slack = await startFakeSlackOAuth();
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-hosted-replicas-'));
  const env: Record<string, string> = {
    OPERATOR_API_KEY: sim.issueProjectKey(operatorProject),
    SLACK_CLIENT_SECRET: slack.clientSecret,
    SLACK_STATE_SECRET: randomBytes(24).toString('hex'),
    SLACK_SIGNING_SECRET: signingSecret,
    FUNDBOT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SLACK_API_URL: slack.apiUrl,
    FUNDBOT_USER_KEY: sim.issueUserKey(sim.project(operatorProject).ownerId, { scopes: ['project:read'] }),
    LOG_LEVEL: 'info',
  };
  const slots = await writeReplicaSlots(dir, replicaCount, 'h', ({ opsPort, slackPort }) => ({
    api: { baseUrl: sim.url },
    store: { url: redis.url, leaseTtlMs },
    projects: [{ linkCaption: operatorProject, apiKeyEnv: 'OPERATOR_API_KEY' }],
    slack: { enabled: true, mode: 'http', port: slackPort, clientId: slack.clientId },
    hosted: { enabled: true, maxProjectsPerWorkspace: 1 },
    digest: { enabled: false },
    engine: { publicReads: false },
    http: { enabled: true, port: opsPort },
  }));
  const startSlot = (i: number) => startReplicaProcess({ ...slots[i]!, env, entry: 'tsx' });
  const events = (i: number) => `http://127.0.0.1:${slots[i % replicaCount]!.slackPort}/slack/events`;
  const store = await openStore(redis.url);
  const subscriptions = createSubscriptionStore(store, { clock: systemClock });
  let replicas: ReplicaProcess[] = [];
  const arrived: (ArrivedSupporter & { workspace: number })[] = [];
  let arrivals: NodeJS.Timeout | undefined;
  let keepLogs = process.argv.includes('--keep-logs');
  const readHolds = () => Promise.all(replicas.map((r) => heldProjects(r)));
  const allHeld = async () => new Set((await readHolds()).flat()).size === workspaceCount + 1;

  try {
    // The User key's pace of one process alone, as a baseline for the fleet's.
    const userReads = (from: number, to: number) =>
      sim.requests.filter((r) => r.path === '/user/me/projects' && r.at >= from && r.at < to).length;
    const alone = await startSlot(0);
    await sleep(5_000);
    const aloneFrom = Date.now();
    await sleep(userKeyWindowMs);
    const userKeyReadsPerMinuteOneProcess = userReads(aloneFrom, Date.now()) / (userKeyWindowMs / 60_000);
    await alone.stop();
    log(`one process read the User key ${userKeyReadsPerMinuteOneProcess} times a minute`);

    replicas = await Promise.all(slots.map((_, i) => startSlot(i)));
    log(`${replicaCount} replicas running after ${Math.round((Date.now() - started) / 1000)} s`);

    // Every workspace installs (the whole flow on one replica: the state cookie), paces supporters live,
    // connects its project through the form (every tenth tries another project's key first), subscribes its
    // channel the moment the answer comes, and a supporter funds 200 ms after it: each through the next replica.
    const connects = await connectWorkspaces({
      workspaces,
      sim,
      slack,
      signingSecret,
      events,
      wrongKeyEvery,
      install: async (w, i) => {
        const { status } = await installWorkspace(
          `http://127.0.0.1:${slots[i % replicaCount]!.slackPort}`,
          slack,
          w,
        );
        if (status !== 200) throw new Error(`install ${w.teamId}: HTTP ${status}`);
      },
    });
    log(`50 workspaces installed and connected after ${Math.round((Date.now() - started) / 1000)} s`);
    await until('every workspace channel subscribed to its own project', async () => {
      const found = await Promise.all(
        workspaces.map((w) => subscriptions.forProject(w.project, 'supporters')),
      );
      return found.every(
        (list, i) => list.length === 1 && list[0]?.channel.channelId === workspaces[i]!.channel,
      );
    });
    await until('every connected project leased by one replica', allHeld, 90_000);
    const settledAt = Date.now();
    await until(
      'a fundings poll of every connected project',
      () => allPolledSince(sim.requests, projects, settledAt + 2_500, '/fundings'),
      90_000,
    );
    log(`spread settled and baselines read after ${Math.round((Date.now() - started) / 1000)} s`);
    const fleetFrom = Date.now();
    await sleep(userKeyWindowMs);
    const userKeyReadsPerMinute = userReads(fleetFrom, Date.now()) / (userKeyWindowMs / 60_000);
    log(`three replicas read the User key ${userKeyReadsPerMinute} times a minute`);

    let next = 0;
    arrivals = setInterval(() => {
      const workspace = (next * 7) % workspaceCount; // 7 is coprime with 50: every project in turn
      next += 1;
      const project = workspaces[workspace]!.project;
      const key = sim.project(project).addSupporter({});
      arrived.push({
        workspace,
        project,
        entryKey: `funding:${key.supportTimestamp}:${key.userId}`,
        supportTimestamp: key.supportTimestamp,
      });
    }, arrivalEveryMs);
    const windowStart = Date.now();
    await sleep(15_000);
    const pollIntervalMs = medianFundingsIntervalMs(sim.requests, projects, windowStart, Date.now());

    const orphaned = (await heldProjects(replicas[1]!)).filter((p) => projects.includes(p));
    const killedAt = Date.now();
    replicas[1]!.child.kill('SIGKILL');
    await until("the killed replica's projects to be polled by the others", () =>
      allPolledSince(sim.requests, orphaned, killedAt + 100),
    );
    const failoverMs = longestUnpolledMs(sim.requests, orphaned, killedAt + 100, Date.now());
    log(`killed h2 (${orphaned.length} connected projects): taken over, longest unpolled ${failoverMs} ms`);
    await sleep(5_000);
    replicas[1] = await startSlot(1);
    await sleep(15_000);

    clearInterval(arrivals);
    arrivals = undefined;
    const posts = () =>
      slack.calls.flatMap((c) => {
        if (c.method !== 'chat.postMessage' || !c.args.metadata) return [];
        const id = (JSON.parse(c.args.metadata) as { event_payload?: { event_id?: string } }).event_payload
          ?.event_id;
        return typeof id === 'string' ? [{ id: eventIdOf(id), channel: c.args.channel, token: c.token }] : [];
      });
    const missesOf = () =>
      workspaces.flatMap((w, i) =>
        missedSupporters(
          arrived.filter((a) => a.workspace === i),
          posts()
            .filter((p) => p.channel === w.channel)
            .map((p) => p.id),
        ),
      );
    await until('every supporter notice', () => missesOf().length === 0, 45_000).catch((error: unknown) =>
      log(String(error)),
    );
    const all = posts();
    const seen = new Map<string, number>();
    for (const p of all) seen.set(`${p.channel} ${p.id}`, (seen.get(`${p.channel} ${p.id}`) ?? 0) + 1);
    const isolationViolations = all.filter((p) => {
      const owner = workspaces.find((w) => p.id.startsWith(`${w.project}:`));
      return !owner || p.channel !== owner.channel || p.token !== slack.tokenOf(owner.teamId);
    }).length;
    const firstMissed = workspaces.flatMap((w, i) =>
      missedSupporters(
        connects.firstSupporters.filter((a) => a.workspace === i),
        posts()
          .filter((p) => p.channel === w.channel)
          .map((p) => p.id),
      ),
    );
    const figures = {
      hosted: {
        replicas: replicaCount,
        workspaces: workspaceCount,
        duplicates: [...seen.values()].filter((n) => n > 1).length,
        misses: missesOf().length,
        isolationViolations,
        failoverMs,
        // As in the main section: the lease TTL plus one measured fundings poll interval.
        failoverTargetMs: leaseTtlMs + pollIntervalMs,
        spread: (await readHolds()).map((h) => h.length).sort((a, b) => b - a),
        firstSupporterMissed: firstMissed.length,
        wrongKeyAccepted: connects.wrongKeyAccepted,
        userKeyReadsPerMinute,
        details: {
          userKeyReadsPerMinuteOneProcess,
          wrongKeyTried: Math.ceil(workspaceCount / wrongKeyEvery),
          wrongKeyPollsAfterRefusal: connects.wrongKeyPolls,
          connectAnswerMs: {
            median: connects.answerMs[Math.floor(connects.answerMs.length / 2)],
            max: connects.answerMs.at(-1),
          },
          pollIntervalMs,
          supporters: arrived.length,
          noticesPosted: all.length,
          wallSeconds: Math.round((Date.now() - started) / 1000),
        },
      },
    };
    keepLogs ||=
      figures.hosted.duplicates > 0 ||
      figures.hosted.misses > 0 ||
      isolationViolations > 0 ||
      firstMissed.length > 0 ||
      connects.wrongKeyAccepted > 0;
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } catch (error) {
    keepLogs = true;
    for (const replica of replicas)
      log(`--- ${replica.name} log tail ---\n${replica.output().slice(-4_000)}`);
    throw error;
  } finally {
    if (arrivals) clearInterval(arrivals);
    await Promise.all(replicas.map((r) => r.stop()));
    await store.close().catch(() => {});
    await slack.close();
    await sim.close();
    await redis.stop();
    if (keepLogs) log(`replica logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

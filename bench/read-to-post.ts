/**
 * `readToPostMs` in `npm run bench`: how long the bot takes from reading a supporter to posting it, measured
 * from outside. The REAL entry point (`src/main.ts`, its own process, as `npm start` runs it) on its default
 * store (a SQLite file in a temp dir), its default Pro-key polling and the real clock, against the simulator
 * (in this process) and the Slack fake (HTTP mode). An admin subscribes a channel to supporters and paces them
 * `live`, as the default `auto` pacing batches a channel after 4 notices an hour and the batch window is not what
 * this figure is about. Then supporters arrive one every 1-3 s (seeded), each with a unique name.
 *
 * Per supporter: t_read is when the simulator SENT the first fundings reply listing it (`onReply`), t_post is
 * when the Slack fake RECEIVED the first chat.postMessage naming it; readToPostMs = t_post − t_read (see
 * read-to-post-score.ts). The polling interval is not in it: it is in the supporter latency of the campaign day.
 *
 * `npx tsx bench/read-to-post.ts` runs this section alone and prints its JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom } from '../src/lib/random.js';
import { type ServedReply, startSimulator } from '../src/simulator/index.js';
import { startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { freePort } from '../test/support/redis-server.js';
import { fanName, namesIn } from './delivery-faults/score.js';
import { writeLaunchBotConfig } from './launch-bot-config.js';
import { namesListed, type ReceivedPost, type ServedList, scoreReadToPost } from './read-to-post-score.js';
import { startReplicaProcess } from './replicas/replica-process.js';
import type { BenchSection, Figures } from './section.js';
import { runSlackAdminCommands } from './slack-admin-commands.js';
import { summarize } from './stats.js';
import { waitUntil } from './wait-until.js';

const supporterCount = 45;
/** Gaps between two supporters: uniform in this range, so reads find none, one or two new supporters. */
const arrivalGapMs = { min: 1_000, max: 3_000 };
const channel = 'C0LAUNCH';
const adminUserId = 'U0ADMIN';
const botToken = 'xoxb-bench-read-to-post';
const signingSecret = 'bench-read-to-post-signing-secret';

const log = (message: string) =>
  process.stderr.write(`bench:readToPost ${new Date().toISOString().slice(11, 19)} ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureReadToPost(): Promise<Figures> {
  const started = Date.now();
  // Kept as sent, looked into after the run: the hook runs on the simulator's request path.
  const fundingReplies: ServedReply[] = [];
  const sim = await startSimulator({
    seed: 22,
    projects: [{ linkCaption: 'launch', title: 'Launch', currency: 'EUR' }],
    onReply: (reply) => {
      if (reply.status === 200 && reply.path.endsWith('/fundings')) fundingReplies.push(reply);
    },
  });
  const slack = await startFakeSlack({
    botToken,
    users: [{ id: adminUserId, team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-read-to-post-'));
  const [opsPort, slackPort] = [await freePort(), await freePort()];
  const configPath = writeLaunchBotConfig({ dir, simUrl: sim.url, slackPort, opsPort });
  const bot = await startReplicaProcess({
    name: 'bot',
    configPath,
    opsPort,
    env: {
      LAUNCH_API_KEY: sim.issueProjectKey('launch'),
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
    },
    logPath: join(dir, 'bot.log'),
  });
  let keep = process.argv.includes('--keep-logs');
  try {
    await runSlackAdminCommands({
      slack,
      port: slackPort,
      signingSecret,
      channel,
      userId: adminUserId,
      texts: ['subscribe launch supporters', 'pacing supporters live'],
      log,
    });
    const subscribedAt = Date.now();
    await waitUntil(
      'a fundings read after the subscription',
      () => fundingReplies.some((r) => r.sentAt > subscribedAt),
      { log },
    );

    const random = seededRandom(22);
    const added: { name: string; at: number }[] = [];
    for (let n = 1; n <= supporterCount; n += 1) {
      await sleep(arrivalGapMs.min + random.next() * (arrivalGapMs.max - arrivalGapMs.min));
      const name = fanName(n);
      sim.project('launch').addSupporter({ displayName: name });
      added.push({ name, at: Date.now() });
    }
    const names = added.map((a) => a.name);
    const posts = (): ReceivedPost[] =>
      slack
        .callsTo('chat.postMessage')
        .filter((call) => call.outcome === 'ok')
        .map((call) => ({ at: call.at, names: namesIn(String(call.args['text'] ?? '')) }));
    const served = (): ServedList[] =>
      fundingReplies.map((r) => ({ sentAt: r.sentAt, names: namesListed(r.body) }));
    await waitUntil(
      'every supporter posted',
      () => scoreReadToPost(names, served(), posts()).samplesMs.length === names.length,
      { timeoutMs: 60_000, log },
    );

    const score = scoreReadToPost(names, served(), posts());
    const firstListed = new Map<string, number>();
    for (const list of served())
      for (const name of list.names) if (!firstListed.has(name)) firstListed.set(name, list.sentAt);
    const details = {
      supporters: names.length,
      neverServed: score.neverServed.length,
      neverPosted: score.neverPosted.length,
      postedBeforeServed: score.postedBeforeServed.length,
      // The other part of a supporter's latency, for context: from its support to the read that found it.
      addedToServedMs: summarize(
        added.flatMap((a) => {
          const at = firstListed.get(a.name);
          return at === undefined ? [] : [at - a.at];
        }),
      ),
      fundingReads: fundingReplies.filter((r) => r.sentAt >= (added[0]?.at ?? 0)).length,
      wallSeconds: Math.round((Date.now() - started) / 1000),
    };
    keep ||= score.readToPostMs.samples < names.length;
    // What happened when, to read where the time went: the simulator's requests, the reads, the posts.
    if (keep)
      writeFileSync(
        join(dir, 'timeline.json'),
        JSON.stringify({ added, served: served(), requests: sim.requests, posts: posts() }),
      );
    log(JSON.stringify({ readToPostMs: score.readToPostMs, details }));
    return { readToPostMs: score.readToPostMs, details: { readToPost: details } };
  } catch (error) {
    keep = true;
    log(`--- bot log tail ---\n${bot.output().slice(-4_000)}`);
    throw error;
  } finally {
    await bot.stop();
    await slack.close();
    await sim.close();
    if (keep) log(`bot log and store kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

export const readToPostSection: BenchSection = { name: 'read-to-post', run: measureReadToPost };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await measureReadToPost())}\n`);
}

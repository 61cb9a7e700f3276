/**
 * What an idle poll costs ON DISK in the process users run: the compiled bot (bench/scale-bot.ts, the image's
 * `node dist/src/main.js` with Slack on the fake, a subscribed channel, the ops server and logging at info) on
 * its default store (a SQLite file), started under `strace -f -ttt -y` (write and sync calls only), on the
 * real clock against the simulator in its own process with nothing new arriving. After the first polls and
 * a settling stretch, the writes to the database, its WAL and journal are added up (bench/syscall-count.ts)
 * over whole checkpoint periods, from the end of one WAL checkpoint to the end of a later one, and divided by
 * the API requests the simulator answered in the same span (one poll of one feed: the strictest reading). The
 * bot's store check and every other writer of the process count too.
 *
 * Why whole periods: most of an idle poll's bytes reach the database file at a checkpoint (at most 60 s
 * after a commit), and the first checkpoint after the first polls carries all of their pages. A fixed
 * two-minute window held two or three checkpoints, and that first one or not, by where it happened to start:
 * the figure read 3,673 or 4,387 B with nothing changed. Between two checkpoint ends every commit counted is
 * one whose checkpoint is counted too, which is what a day of idle polls costs on disk.
 *
 * Two projects: the plain one (30 supporters) and a long list (20,000 supporters), whose idle polls include
 * the sweep below the first page's window.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { freePort } from '../test/support/redis-server.js';
import { benchAppDir } from './compiled-children.js';
import { startScaleBot } from './scale-bot.js';
import { offsetToAfterMidnight, startScaleSimulator } from './scale-sim.js';
import { scaleAdminUserId, seedSubscriptions } from './scale-subscribe.js';
import { checkpointEnds, countStoreSyscalls } from './syscall-count.js';
import { waitUntil } from './wait-until.js';

export interface BotIdleDisk {
  readonly diskBytesPerIdlePoll: number;
  readonly fsyncsPerPoll: number;
  readonly polls: number;
  readonly windowS: number;
  /** Whole checkpoint periods in the window (0: no two checkpoints were seen, the whole sampled span counts). */
  readonly checkpointPeriods: number;
  readonly bytes: number;
  readonly bytesByFile: Record<string, number>;
  readonly supporters: number;
}

const traced = 'write,pwrite64,pwritev,pwritev2,writev,fsync,fdatasync';
/** After the first polls: the baseline's writes (and a long list's first sweep pages) settle. */
const settleMs = 30_000;
/**
 * Sampled after the settle: long enough for the checkpoint that carries the settle's commits (at most
 * 60 s after one, plus its wait for the next commit) and two whole checkpoint periods after it.
 */
const sampledMs = 240_000;
/** How often the simulator's request count is read, to count the requests between two checkpoint ends. */
const sampleEveryMs = 1_000;
const botToken = 'xoxb-bench-disk';
const signingSecret = 'bench-disk-signing-secret';

export async function measureBotIdleDisk(supporters: number): Promise<BotIdleDisk> {
  const sim = await startScaleSimulator(1, offsetToAfterMidnight(), {
    realClock: true,
    supportersEach: supporters,
  });
  const slack = await startFakeSlack({
    botToken,
    users: [{ id: scaleAdminUserId, team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const dir = await mkdtemp(join(tmpdir(), `fundbot-bot-disk-${supporters}-`));
  await mkdir(join(dir, 'data'));
  const database = join(dir, 'data', 'fundbot.sqlite');
  await seedSubscriptions(`sqlite://${database}`, 1);
  const straceLog = join(dir, 'strace.log');
  const bot = startScaleBot({
    appDir: await benchAppDir(),
    dir,
    simUrl: sim.url,
    keys: sim.keys,
    storeUrl: `sqlite://${database}`,
    slack: { apiUrl: slack.apiUrl, port: await freePort(), botToken, signingSecret },
    opsPort: await freePort(),
    wrapper: ['strace', '-f', '--seccomp-bpf', '-ttt', '-y', '-e', `trace=${traced}`, '-o', straceLog, '--'],
    name: `bot-disk-${supporters}`,
  });
  try {
    await bot.running;
    const log = (message: string) => process.stderr.write(`bench:bot-disk(${supporters}) ${message}\n`);
    if (
      !(await waitUntil('the first polls', async () => (await sim.stats()).fullyPolled >= 1, {
        timeoutMs: 120_000,
        log,
      }))
    )
      throw new Error('the bot did not finish its first polls within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const samples: RequestSample[] = [];
    const sampledUntil = Date.now() + sampledMs;
    while (Date.now() < sampledUntil) {
      samples.push({ at: Date.now(), requests: (await sim.stats()).requests });
      await new Promise((resolve) => setTimeout(resolve, sampleEveryMs));
    }
    samples.push({ at: Date.now(), requests: (await sim.stats()).requests });
    await bot.stop();
    const trace = await readFile(straceLog, 'utf8');
    const first = samples[0] as RequestSample;
    const last = samples.at(-1) as RequestSample;
    const ends = checkpointEnds(trace, { database, markerFile: '\0none' }).filter(
      (at) => at > first.at && at <= last.at,
    );
    const whole = ends.length >= 2;
    // Just after the first end, so its own last call (the file's sync) is not counted twice.
    const from = whole ? (ends[0] as number) + 0.001 : first.at;
    const to = whole ? (ends.at(-1) as number) : last.at;
    const polls = Math.max(1, Math.round(requestsAt(samples, to) - requestsAt(samples, from)));
    const syscalls = countStoreSyscalls(trace, { database, markerFile: '\0none', fromMs: from, toMs: to });
    return {
      diskBytesPerIdlePoll: Math.round(syscalls.bytes / polls),
      fsyncsPerPoll: Math.round((syscalls.fsyncs / polls) * 1000) / 1000,
      polls,
      windowS: Math.round((to - from) / 1000),
      checkpointPeriods: whole ? ends.length - 1 : 0,
      bytes: syscalls.bytes,
      bytesByFile: syscalls.bytesByFile,
      supporters,
    };
  } catch (error) {
    process.stderr.write(`bench:bot-disk(${supporters}) bot log tail:\n${bot.tail().slice(-4_000)}\n`);
    throw error;
  } finally {
    await bot.stop();
    await slack.close();
    sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

interface RequestSample {
  readonly at: number;
  readonly requests: number;
}

/** The simulator's request count at `at` (epoch ms), linear between the samples around it. */
function requestsAt(samples: readonly RequestSample[], at: number): number {
  const after = samples.findIndex((s) => s.at >= at);
  // Before the first sample: its count; after the last one: the last count.
  if (after === 0) return (samples[0] as RequestSample).requests;
  if (after < 0) return (samples.at(-1) as RequestSample).requests;
  const a = samples[after - 1] as RequestSample;
  const b = samples[after] as RequestSample;
  return a.requests + ((b.requests - a.requests) * (at - a.at)) / Math.max(1, b.at - a.at);
}

/**
 * What an idle poll costs ON DISK in the process users run: the compiled bot (bench/scale-bot.ts, the image's
 * `node dist/src/main.js` with Slack on the fake, a subscribed channel, the ops server and logging at info) on
 * its default store (a SQLite file), started under `strace -f -ttt -y` (write and sync calls only), on the
 * real clock against the simulator in its own process with nothing new arriving. After the first polls and
 * a settling stretch, the writes to the database, its WAL and journal within a two-minute window are added up
 * (bench/syscall-count.ts) and divided by the API requests the simulator answered in that window (one poll of
 * one feed: the strictest reading). The bot's store check and every other writer of the process count too.
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
import { countStoreSyscalls } from './syscall-count.js';
import { waitUntil } from './wait-until.js';

export interface BotIdleDisk {
  readonly diskBytesPerIdlePoll: number;
  readonly fsyncsPerPoll: number;
  readonly polls: number;
  readonly windowS: number;
  readonly bytes: number;
  readonly bytesByFile: Record<string, number>;
  readonly supporters: number;
}

const traced = 'write,pwrite64,pwritev,pwritev2,writev,fsync,fdatasync';
/** After the first polls: the baseline's writes (and a long list's first sweep pages) settle. */
const settleMs = 30_000;
const windowMs = 120_000;
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
    const from = Date.now();
    const before = (await sim.stats()).requests;
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const to = Date.now();
    const polls = Math.max(1, (await sim.stats()).requests - before);
    await bot.stop();
    const syscalls = countStoreSyscalls(await readFile(straceLog, 'utf8'), {
      database,
      markerFile: '\0none',
      fromMs: from,
      toMs: to,
    });
    return {
      diskBytesPerIdlePoll: Math.round(syscalls.bytes / polls),
      fsyncsPerPoll: Math.round((syscalls.fsyncs / polls) * 1000) / 1000,
      polls,
      windowS: Math.round((to - from) / 1000),
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

import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBotIdleDisk } from './bot-disk.js';
import type { BenchSection } from './section.js';
import { countStoreSyscalls, type StoreSyscalls } from './syscall-count.js';

/**
 * What the default store costs ON DISK, counted where it lands, with `strace -f -y` (only the write and sync
 * calls are traced, with --seccomp-bpf so the rest runs untraced); bench/syscall-count.ts adds up the bytes
 * written to the database, its WAL and journal, and the fsync/fdatasync calls on them. The figures at the store
 * interface (`storeBytesPerIdlePoll`, `storeBytesPerDay`) stay beside them; issue 22 found the disk getting 43x
 * what the interface showed.
 *
 * - `diskBytesPerIdlePoll`, `fsyncsPerPollCycle`, `longList`: the real bot, compiled, on the real clock with
 *   nothing new arriving, per API request over whole WAL checkpoint periods (bench/bot-disk.ts): a plain project
 *   (30 supporters) and a long list (20,000 supporters, its sweep included). Issue 33: the engine alone showed
 *   323 B, and the bot's own writes (its store check every 10 s, and each checkpoint) were not in it.
 * - `details.storeDisk.engineIdle`: the engine alone (bench/store-disk-child.ts) on a virtual clock, 4 hours of
 *   the 100,000-supporter project with nothing new, each feed polled when the plan says.
 * - `diskBytesPerDay`: the bench's launch day (one project, 24 h, every notice), the engine alone on the file.
 *
 * Needs `strace` (Debian: apt-get install strace) and ptrace rights; without them the figures are
 * null and `details.storeDiskSkipped` says why.
 */
const childScript = fileURLToPath(new URL('./store-disk-child.ts', import.meta.url));
const traced = 'write,pwrite64,pwritev,pwritev2,writev,fsync,fdatasync';

function straceMissing(): string | undefined {
  const probe = spawnSync('strace', ['-f', '--seccomp-bpf', '-e', 'trace=fsync', '-o', '/dev/null', 'true']);
  if (probe.error !== undefined) return `strace is not installed (${probe.error.message})`;
  if (probe.status !== 0) return `strace cannot trace here: ${probe.stderr.toString('utf8').trim()}`;
  return undefined;
}

async function traceChild(
  mode: 'idle' | 'day',
): Promise<{ syscalls: StoreSyscalls; result: Record<string, number> }> {
  const dir = await mkdtemp(join(tmpdir(), `fundbot-disk-${mode}-`));
  try {
    const log = join(dir, 'strace.log');
    const args = ['-f', '--seccomp-bpf', '-y', '-e', `trace=${traced}`, '-o', log];
    const child = spawn('strace', [...args, process.execPath, '--import', 'tsx', childScript, mode, dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the ${mode} disk run exited with ${code}`);
    const syscalls = countStoreSyscalls(await readFile(log, 'utf8'), {
      database: join(dir, 'fundbot.sqlite'),
      markerFile: 'phase-marker',
      ...(mode === 'idle' ? { from: 'idle-start', to: 'idle-end' } : {}),
    });
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as Record<string, number>;
    return { syscalls, result };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const storeDiskSection: BenchSection = {
  name: 'store-disk',
  async run() {
    const missing = straceMissing();
    if (missing !== undefined) {
      console.warn(`store-disk: skipped, ${missing}`);
      return {
        diskBytesPerIdlePoll: null,
        diskBytesPerDay: null,
        fsyncsPerPollCycle: null,
        longList: null,
        details: { storeDiskSkipped: missing },
      };
    }
    // The bot's two idle runs side by side (bytes do not depend on the CPU they share), then the engine's.
    const [plain, longList] = await Promise.all([measureBotIdleDisk(30), measureBotIdleDisk(20_000)]);
    const idle = await traceChild('idle');
    const day = await traceChild('day');
    const polls = Math.max(1, idle.result['polls'] ?? 0);
    const idleHours = idle.result['hours'] ?? 1;
    return {
      diskBytesPerIdlePoll: plain.diskBytesPerIdlePoll,
      diskBytesPerDay: day.syscalls.bytes,
      fsyncsPerPollCycle: plain.fsyncsPerPoll,
      longList: {
        diskBytesPerIdlePoll: longList.diskBytesPerIdlePoll,
        fsyncsPerPoll: longList.fsyncsPerPoll,
      },
      details: {
        storeDisk: {
          bot: { plain, longList },
          engineIdle: {
            diskBytesPerIdlePoll: Math.round(idle.syscalls.bytes / polls),
            fsyncsPerPollCycle: Math.round((idle.syscalls.fsyncs / polls) * 1000) / 1000,
            polls,
            hours: idleHours,
            ...idle.syscalls,
          },
          engineIdleDayBytes: Math.round((idle.syscalls.bytes * 24) / idleHours),
          launchDay: { ...day.result, ...day.syscalls },
        },
      },
    };
  },
};

/**
 * The running bot's life in a real-bot chaos seed: the real entry point (`src/main.ts` under tsx, or the compiled
 * `dist/src/main.js`) as a child process, killed with SIGKILL and started again by a supervisor after the seed's
 * delay on the same SQLite file, or stopped with SIGSTOP and continued. Each stretch it could not work is a
 * disruption for the judge (a restart counts until the new process says it runs).
 */
import {
  type BotProcess,
  type Entry,
  type LogLine,
  startBotProcess,
} from '../../journeys/harness/bot-process.js';
import { processStartMs } from '../../support/wait-until.js';
import type { Disruption } from '../world/world-record.js';

export interface BotLifeOptions {
  readonly entry: Entry;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly disruptions: Disruption[];
  readonly notes: string[];
  /**
   * Called before each start: returns the wait until that new process reached its platforms (Socket Mode
   * connected, its gateway IDENTIFY), told apart from its predecessors'.
   */
  readonly connection: () => () => Promise<void>;
}

export interface BotLife {
  /** The name of the process running now, e.g. `bot#2`. */
  readonly name: string;
  start(): Promise<void>;
  /** kill -9, then the supervisor's restart after `restartAfterMs`. */
  kill(restartAfterMs: number): void;
  /** SIGSTOP for `forMs`, then SIGCONT. */
  pause(forMs: number): void;
  /** Resolves when no restart or pause is under way. */
  steady(): Promise<void>;
  /**
   * Warnings, errors and stderr of every process, for a failing seed's report (every line with CHAOS_LOG_ALL=1),
   * each log line timed from `since` (epoch ms; the schedule's start) when given.
   */
  log(since?: number): string[];
  /** SIGTERM (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const warnLevels = new Set(['warn', 'error', 'fatal', 40, 50, 60]);

function logLineText(line: LogLine, since: number | undefined): string {
  const { msg, level, time, pid: _pid, hostname: _host, ...rest } = line;
  // The logger writes ISO times (src/ops/logger.ts).
  const loggedAt =
    typeof time === 'string' || typeof time === 'number' ? new Date(time).getTime() : Number.NaN;
  const seconds = since !== undefined && Number.isFinite(loggedAt) ? (loggedAt - since) / 1000 : undefined;
  const at = seconds === undefined ? '' : `${seconds >= 0 ? '+' : ''}${seconds.toFixed(2)}s `;
  return `${at}${String(level)} ${String(msg ?? '')} ${JSON.stringify(rest)}`.slice(0, 400);
}

export function botLife(options: BotLifeOptions): BotLife {
  const processes: BotProcess[] = [];
  let current: BotProcess | undefined;
  /** Restarts, one after another. */
  let busy: Promise<void> = Promise.resolve();
  /**
   * Pauses under way, each continued by its own timer: chained behind a restart, a pause that hit the new process
   * as it started (SIGSTOP before it said it runs) was continued only when that restart's wait for "fundbot is
   * running" gave up 90 s later, and a 1 s pause stopped the bot for 80 s (real-bot seed 1 under load).
   */
  const pauses = new Set<Promise<void>>();
  let incarnation = 0;

  async function start(): Promise<void> {
    incarnation += 1;
    const connected = options.connection();
    const bot = startBotProcess({
      name: `bot#${incarnation}`,
      entry: options.entry,
      cwd: options.cwd,
      env: options.env,
    });
    processes.push(bot);
    current = bot;
    await bot.waitForLog(
      (l) => /fundbot is running/.test(String(l.msg ?? '')),
      'fundbot is running',
      processStartMs,
    );
    await connected();
  }

  return {
    get name() {
      return current?.name ?? 'none';
    },
    start,
    kill(restartAfterMs) {
      const bot = current;
      if (!bot || bot.exitCode() !== undefined) return;
      const from = Date.now();
      bot.kill();
      const disruption: Disruption = { from, to: Number.POSITIVE_INFINITY, what: 'kill' };
      options.disruptions.push(disruption);
      options.notes.push(`kill -9 ${bot.name}, restart after ${restartAfterMs} ms`);
      busy = busy.then(async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, from + restartAfterMs - Date.now())));
        // A kill -9 may land while the new process starts (its own restart then follows).
        await start().catch((error: unknown) =>
          options.notes.push(`restart: ${String(error).slice(0, 200)}`),
        );
        disruption.to = Date.now();
      });
    },
    pause(forMs) {
      const pid = current?.pid;
      if (pid === undefined || current?.exitCode() !== undefined) return;
      const from = Date.now();
      process.kill(pid, 'SIGSTOP');
      options.disruptions.push({ from, to: from + forMs, what: 'pause' });
      const continued = new Promise<void>((resolve) => setTimeout(resolve, forMs)).then(() => {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Killed meanwhile.
        }
      });
      pauses.add(continued);
      void continued.then(() => pauses.delete(continued));
    },
    async steady() {
      // A kill or pause may begin another step while one is awaited.
      for (let seen: Promise<void> | undefined; seen !== busy || pauses.size > 0; ) {
        seen = busy;
        await Promise.all([seen, ...pauses]);
      }
    },
    log: (since) =>
      processes.flatMap((bot) => [
        ...bot
          .logLines()
          .filter((l) => process.env['CHAOS_LOG_ALL'] || warnLevels.has(l.level as string))
          .map((l) => `${bot.name} ${logLineText(l, since)}`),
        ...bot
          .stderr()
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => `${bot.name} stderr ${l}`),
      ]),
    async stop() {
      if (current && current.exitCode() === undefined) await current.stop('SIGTERM', 10_000).catch(() => {});
      for (const bot of processes) bot.kill();
    },
  };
}

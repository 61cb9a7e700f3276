/**
 * The real entry point (`src/main.ts` under tsx, or the compiled one) as a child process, driven only from
 * outside: a config file in a temporary directory, the environment, and whatever the
 * test points it at (the simulator, the Discord and Slack fakes). Its stdout is JSON log
 * lines; they are parsed as they come so a test can wait for one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { type Entry, entryCommand, tsxEntry } from '../../journeys/harness/bot-process.js';
import { processStartMs, waitUntil } from '../../support/wait-until.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** One JSON log line of the bot. */
export type LogRecord = Readonly<Record<string, unknown>> & {
  readonly msg?: string;
  readonly level?: string;
};

export interface SpawnedBot {
  readonly proc: ChildProcessWithoutNullStreams;
  /** The temporary directory holding the config file (and whatever the test puts there). */
  readonly dir: string;
  /** Resolves with the exit code once the process exits. */
  readonly exited: Promise<number | null>;
  readonly logs: readonly LogRecord[];
  /** Everything written to stdout and stderr so far, for failure messages. */
  output(): string;
  /** Resolves with the first log record (past or future) that matches; rejects on exit or timeout. */
  waitForLog(what: string, predicate: (record: LogRecord) => boolean, timeoutMs?: number): Promise<LogRecord>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL if still running, and removes the directory. Safe to call twice. */
  dispose(): void;
}

export interface SpawnBotOptions {
  /**
   * Written as `fundbot.config.json` in a fresh directory (JSON, or `configText` as it is); FUNDBOT_CONFIG names
   * it. Neither: no config and no FUNDBOT_CONFIG (the demo, without tokens).
   */
  readonly config?: unknown;
  readonly configText?: string;
  /** The child's whole environment besides PATH, HOME and FUNDBOT_CONFIG. */
  readonly env?: Readonly<Record<string, string>>;
  /** Default: the repository; `'dir'`: the fresh directory (an empty working directory). */
  readonly cwd?: string;
  /** Resolve once this message was logged (default "fundbot is running"); null: at once. */
  readonly readyMessage?: string | null;
  readonly readyTimeoutMs?: number;
  /**
   * Default: `src/main.ts` under tsx (`npm start`). The tests of a feature rather than of `npm start`'s path pass
   * the compiled entry (test/journeys/harness/compiled-entry.ts: `compiledEntryForFile`), about 2 s less CPU a start.
   */
  readonly entry?: Entry;
}

/**
 * How long a start may take by default: tsx starts the bot in seconds alone, but the suite starts several bots at
 * once beside its CPU-bound files (vitest.config.ts), and the journeys' drivers allow 90 s for the same reason.
 */
const readyMs = processStartMs;

/** Starts the child (inside a test: it is killed and its directory removed when the test ends). */
export async function spawnBot(options: SpawnBotOptions): Promise<SpawnedBot> {
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-process-'));
  const configPath = join(dir, 'fundbot.config.json');
  const configText =
    options.configText ?? (options.config === undefined ? undefined : JSON.stringify(options.config));
  if (configText !== undefined) writeFileSync(configPath, configText);
  const command = entryCommand(options.entry ?? tsxEntry);
  const proc = spawn(process.execPath, command.args, {
    cwd: options.cwd === 'dir' ? dir : (options.cwd ?? repoRoot),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...command.env,
      ...(configText !== undefined ? { FUNDBOT_CONFIG: configPath } : {}),
      ...options.env,
    },
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const logs: LogRecord[] = [];
  let text = '';
  let pending = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    const part = chunk.toString('utf8');
    text += part;
    pending += part;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as LogRecord);
      } catch {
        // Not a log line (the demo's screen): kept in output() only.
      }
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  let disposed = false;

  const bot: SpawnedBot = {
    proc,
    dir,
    exited,
    logs,
    output: () => text,
    waitForLog(what, predicate, timeoutMs = 20_000) {
      const logged = () => {
        const found = logs.find(predicate);
        if (found) return found;
        if (proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(`the bot exited (${proc.exitCode ?? proc.signalCode}) before logging ${what}`);
        return undefined;
      };
      return waitUntil(what, logged, { timeoutMs }).catch((error: Error) => {
        throw new Error(`${error.message}:\n${text}`);
      });
    },
    stop() {
      if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
      return new Promise((resolve) => {
        proc.once('exit', (code) => resolve(code));
        proc.kill('SIGTERM');
      });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Killed when the test ends, pass or fail (dispose is safe to call again).
  onTestFinished(() => bot.dispose());
  const ready = options.readyMessage === undefined ? 'fundbot is running' : options.readyMessage;
  if (ready !== null) {
    try {
      await bot.waitForLog(`"${ready}"`, (r) => r.msg === ready, options.readyTimeoutMs ?? readyMs);
    } catch (error) {
      bot.dispose();
      throw error;
    }
  }
  return bot;
}

/**
 * The real entry point as a child process: `src/main.ts` under tsx (what `npm start` runs) or the compiled
 * `dist/src/main.js` (what the Docker image runs). A journey drives it only from outside and reads what it
 * printed: JSON log lines on stdout, problems on stderr.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '../../support/wait-until.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Which entry point to start: tsx on the sources, or plain node on a compiled tree (see compiled-entry.ts). */
export type Entry =
  | { readonly kind: 'tsx' }
  | {
      readonly kind: 'compiled';
      /** The image's /app: `dist/`, `package.json` and `node_modules` side by side. */
      readonly appDir: string;
    };

export const tsxEntry: Entry = { kind: 'tsx' };

/** One parsed JSON log line (pino), with the raw line kept for messages. */
export type LogLine = Record<string, unknown> & { readonly msg?: string; readonly level?: string };

export interface BotProcess {
  readonly name: string;
  readonly pid: number | undefined;
  /** stdout and stderr as they came, interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Every stdout line that parsed as JSON. */
  logLines(): readonly LogLine[];
  /** undefined while running, else the exit code (null after a signal). */
  exitCode(): number | null | undefined;
  /** Resolves with the first log line (past or future) whose `msg` matches; rejects after the deadline or on exit. */
  waitForLog(
    match: RegExp | ((line: LogLine) => boolean),
    what: string,
    timeoutMs?: number,
  ): Promise<LogLine>;
  /** Resolves when the output (stdout + stderr) matches; rejects after the deadline or on exit. */
  waitForOutput(pattern: RegExp, what: string, timeoutMs?: number): Promise<string>;
  writeLine(line: string): void;
  endInput(): void;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** Sends `signal` and waits for the exit: the code and how long it took. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; ms: number }>;
  /** SIGKILL, if still running. */
  kill(): void;
}

const running = new Set<BotProcess>();
// A test worker that ends abruptly (a crash, a timeout) must not leave fundbot processes behind.
process.once('exit', () => killAllBots());

/** Kills every child still running (for afterAll / afterEach). */
export function killAllBots(): void {
  for (const bot of running) bot.kill();
  running.clear();
}

export interface StartOptions {
  readonly name: string;
  readonly entry: Entry;
  /** The whole environment of the child: nothing of the test runner's leaks in except PATH and HOME. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Another script of the repository than the entry point, e.g. `commands/register-discord.ts`. */
  readonly script?: string;
  readonly args?: readonly string[];
}

/**
 * Node's arguments that start `script` (a repository path, `src/main.ts` by default) on `entry`, and what the entry
 * adds to the environment (the image's NODE_ENV for the compiled one).
 */
export function entryCommand(
  entry: Entry,
  script = 'src/main.ts',
): { readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> } {
  return entry.kind === 'tsx'
    ? { args: ['--import', import.meta.resolve('tsx'), join(repoRoot, script)], env: {} }
    : {
        args: [join(entry.appDir, 'dist', script.replace(/\.ts$/, '.js'))],
        env: { NODE_ENV: 'production' },
      };
}

export function startBotProcess(options: StartOptions): BotProcess {
  const command = entryCommand(options.entry, options.script);
  const args = [...command.args, ...(options.args ?? [])];
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...command.env,
    ...options.env,
  };
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, { cwd: options.cwd, env });
  let all = '';
  let out = '';
  let err = '';
  let pending = '';
  const lines: LogLine[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    all += text;
    out += text;
    pending += text;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      if (!line.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // A line that starts like JSON but is not: left to the journeys that check every line.
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    all += text;
    err += text;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const alive = () => child.exitCode === null && child.signalCode === null;
  const bot: BotProcess = {
    name: options.name,
    pid: child.pid,
    output: () => all,
    stdout: () => out,
    stderr: () => err,
    logLines: () => lines,
    exitCode: () => (alive() ? undefined : child.exitCode),
    waitForLog: (match, what, timeoutMs = 15_000) => {
      const test =
        typeof match === 'function' ? match : (line: LogLine) => match.test(String(line.msg ?? ''));
      return waitUntil(what, () => lines.find(test) ?? (alive() ? undefined : exitedEarly(bot, what)), {
        timeoutMs: timeoutMs,
      });
    },
    waitForOutput: (pattern, what, timeoutMs = 15_000) =>
      waitUntil(what, () => (pattern.test(all) ? all : alive() ? undefined : exitedEarly(bot, what)), {
        timeoutMs: timeoutMs,
      }),
    writeLine: (line) => {
      child.stdin.write(`${line}\n`);
    },
    endInput: () => child.stdin.end(),
    exited: () => exit,
    async stop(signal = 'SIGTERM', timeoutMs = 12_000) {
      const started = Date.now();
      if (alive()) child.kill(signal);
      const code = await Promise.race([
        exit,
        new Promise<'late'>((resolve) => setTimeout(resolve, timeoutMs, 'late').unref()),
      ]);
      if (code === 'late') {
        child.kill('SIGKILL');
        throw new Error(`${options.name} did not exit within ${timeoutMs} ms of ${signal}`);
      }
      running.delete(bot);
      return { code, ms: Date.now() - started };
    },
    kill: () => {
      if (alive()) child.kill('SIGKILL');
      running.delete(bot);
    },
  };
  running.add(bot);
  void exit.then(() => running.delete(bot));
  return bot;
}

function exitedEarly(bot: BotProcess, what: string): never {
  throw new Error(`${bot.name} exited (code ${String(bot.exitCode())}) while waiting for ${what}`);
}

/** The last `lines` lines of a child's output, for a failed step's report. */
export function outputTail(bot: BotProcess, lines = 120): string {
  const all = bot.output().split('\n');
  const tail = all.slice(-lines).join('\n');
  return all.length > lines ? `… (${all.length - lines} earlier lines)\n${tail}` : tail;
}

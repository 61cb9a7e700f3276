/**
 * The real bot for the scale benches: the compiled entry point the Docker image runs (`node dist/src/main.js`
 * in a compiled /app-like directory, bench/compiled-children.ts), with the image's environment (its Dockerfile
 * ENV lines), configured only from outside: a config file naming `keys.length` projects (`project-<i>`, each key
 * in its own variable), the store, Slack in HTTP mode on the local fake, the ops server and logging at info.
 * Its log goes to a file (the bot writes every line; the bench keeps the count and a tail).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readImageSettings } from '../test/journeys/harness/compiled-entry.js';

export interface ScaleBotOptions {
  /** The compiled app directory (`dist/`, `package.json`, `node_modules`). */
  readonly appDir: string;
  /** Where the config, the log (and a SQLite store, if the URL says so) go. */
  readonly dir: string;
  readonly simUrl: string;
  readonly keys: readonly string[];
  readonly storeUrl: string;
  readonly slack: {
    readonly apiUrl: string;
    readonly port: number;
    readonly botToken: string;
    readonly signingSecret: string;
  };
  readonly opsPort: number;
  /** Top-level config sections over the common ones (e.g. `engine`, `store`). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Extra environment (over the image's). */
  readonly env?: Readonly<Record<string, string>>;
  /** Runs the bot under another program (e.g. `strace … --`): the command's words before `node`. */
  readonly wrapper?: readonly string[];
  /** Flags for `node` itself, before the entry (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  readonly nodeFlags?: readonly string[];
  /** A name for the log file (default `bot`). */
  readonly name?: string;
}

export interface ScaleBot {
  readonly child: ChildProcess;
  /** The bot's own process id (under a wrapper: found among the wrapper's children). */
  pid(): Promise<number>;
  readonly opsUrl: string;
  /** Epoch ms of the spawn. */
  readonly spawnedAt: number;
  /** Resolves with the epoch ms of its "fundbot is running" line. */
  readonly running: Promise<number>;
  /** Log lines and bytes written so far. */
  logged(): { readonly lines: number; readonly bytes: number };
  tail(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
}

const keptChars = 20_000;

/** The config file (no secrets in it: each key is named by its variable, as an operator writes it). */
function writeConfig(options: ScaleBotOptions): string {
  const path = join(options.dir, `${options.name ?? 'bot'}.config.json`);
  // The digest on, at a time the run does not reach: its scheduler runs as in production, its posts do not.
  const digestTime = new Date(Date.now() + 12 * 3_600_000).toISOString().slice(11, 16);
  writeFileSync(
    path,
    JSON.stringify({
      api: { baseUrl: options.simUrl },
      store: { url: options.storeUrl },
      logLevel: 'info',
      projects: options.keys.map((_, i) => ({
        linkCaption: `project-${i}`,
        apiKeyEnv: `PROJECT_${i}_API_KEY`,
      })),
      slack: { enabled: true, mode: 'http', port: options.slack.port },
      digest: { enabled: true, time: digestTime, timeZone: 'UTC' },
      http: { enabled: true, port: options.opsPort, host: '127.0.0.1' },
      ...options.config,
    }),
  );
  return path;
}

export function startScaleBot(options: ScaleBotOptions): ScaleBot {
  const configPath = writeConfig(options);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...readImageSettings().env,
    FUNDBOT_CONFIG: configPath,
    FUNDBOT_HEALTH_HOST: '127.0.0.1',
    SLACK_BOT_TOKEN: options.slack.botToken,
    SLACK_SIGNING_SECRET: options.slack.signingSecret,
    SLACK_API_URL: options.slack.apiUrl,
    ...options.env,
  };
  options.keys.forEach((key, i) => {
    env[`PROJECT_${i}_API_KEY`] = key;
  });
  const wrapper = options.wrapper ?? [];
  const command = [...wrapper, process.execPath, ...(options.nodeFlags ?? []), 'dist/src/main.js'];
  const spawnedAt = Date.now();
  const child = spawn(command[0] ?? process.execPath, command.slice(1), {
    cwd: options.appDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(options.dir, `${options.name ?? 'bot'}.log`));
  let tail = '';
  let lines = 0;
  let bytes = 0;
  let resolveRunning: (at: number) => void = () => {};
  let rejectRunning: (error: Error) => void = () => {};
  const running = new Promise<number>((resolve, reject) => {
    resolveRunning = resolve;
    rejectRunning = reject;
  });
  let isRunning = false;
  const append = (chunk: Buffer) => {
    log.write(chunk);
    bytes += chunk.length;
    const text = chunk.toString('utf8');
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
    tail = (tail + text).slice(-keptChars);
    if (!isRunning && tail.includes('"fundbot is running"')) {
      isRunning = true;
      resolveRunning(Date.now());
    }
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      log.end();
      if (!isRunning)
        rejectRunning(new Error(`the bot exited (${code}) before running:\n${tail.slice(-4_000)}`));
      resolve(code);
    });
  });
  return {
    child,
    pid: () => (wrapper.length === 0 ? Promise.resolve(child.pid ?? 0) : nodeChildOf(child.pid ?? 0)),
    opsUrl: `http://127.0.0.1:${options.opsPort}`,
    spawnedAt,
    running,
    logged: () => ({ lines, bytes }),
    tail: () => tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      // Under a wrapper the bot gets the signal (strace, signalled, would detach and leave the bot running).
      if (wrapper.length === 0) child.kill('SIGTERM');
      else process.kill(await nodeChildOf(child.pid ?? 0), 'SIGTERM');
      return exited;
    },
  };
}

/** The pid of the `node` process a wrapper (strace) started, waiting for it to appear. */
async function nodeChildOf(wrapperPid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  for (let tries = 0; tries < 200; tries++) {
    try {
      const children = readFileSync(`/proc/${wrapperPid}/task/${wrapperPid}/children`, 'utf8')
        .trim()
        .split(' ');
      const pid = Number(children[0]);
      if (pid > 0) return pid;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no process started under ${wrapperPid}`);
}

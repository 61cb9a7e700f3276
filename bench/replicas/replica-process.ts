/**
 * One replica of the replicas benchmark: the REAL entry point (`src/main.ts`, what `npm start` runs) as its own
 * process, on a config file and environment like a deployment's. The orchestrator (run.ts) reads it only from
 * outside: `/healthz` (which projects it holds), `/metrics` (CPU, memory, requests) and its log lines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The log tail kept per replica, printed when it fails to start or a step times out. */
const keptOutputChars = 20_000;

export interface ReplicaProcess {
  /** The slot's name (r1, r2, r3); a restarted slot keeps its name, the bot itself picks a new replica id. */
  readonly name: string;
  readonly opsUrl: string;
  readonly child: ChildProcess;
  /** The last log lines (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for the exit (the bot gives its leases back on the way out). */
  stop(): Promise<void>;
}

export interface StartReplicaOptions {
  readonly name: string;
  readonly configPath: string;
  readonly opsPort: number;
  /** The secrets: project key variables, Slack token and signing secret, SLACK_API_URL. */
  readonly env: Readonly<Record<string, string>>;
  readonly startTimeoutMs?: number;
  /**
   * `tsx` (default): `node --import tsx src/main.ts`, what `npm start` runs. `built`: `node dist/src/main.js`,
   * what the Docker image runs (after `npm run build`); without the TypeScript loader, for the sizing figures.
   */
  readonly entry?: 'tsx' | 'built';
  /** Every log line is appended here too (a restarted slot appends to the same file). */
  readonly logPath: string;
}

/** Starts the entry point and resolves once it logged "fundbot is running". */
export async function startReplicaProcess(options: StartReplicaOptions): Promise<ReplicaProcess> {
  const args = options.entry === 'built' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      FUNDBOT_CONFIG: options.configPath,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const logFile = createWriteStream(options.logPath, { flags: 'a' });
  const append = (chunk: Buffer) => {
    logFile.write(chunk);
    output = (output + chunk.toString('utf8')).slice(-keptOutputChars);
  };
  child.once('exit', () => logFile.end());
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${options.name} did not start within the timeout:\n${output}`));
    }, options.startTimeoutMs ?? 60_000);
    const check = () => {
      if (!output.includes('"fundbot is running"')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`replica ${options.name} exited (${code}) before running:\n${output}`));
    };
    child.stdout!.on('data', check);
    child.once('exit', onExit);
  });

  return {
    name: options.name,
    opsUrl: `http://127.0.0.1:${options.opsPort}`,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT'); // a frozen process would not act on SIGTERM
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The projects a replica holds, from its `/healthz`: one `poll:<project>` check each (the `replica` check names ten). */
export async function heldProjects(replica: ReplicaProcess): Promise<string[]> {
  const response = await fetch(`${replica.opsUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
  const body = (await response.json()) as { checks?: Record<string, unknown> };
  if (body.checks?.['replica'] === undefined)
    throw new Error(`replica ${replica.name}: /healthz has no replica check`);
  return polledProjects(body.checks);
}

/** The projects a replica's `/healthz` has a `poll:<project>` check for: those it holds and polls. */
export function polledProjects(checks: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(checks)
    .filter((name) => name.startsWith('poll:'))
    .map((name) => name.slice('poll:'.length));
}

/** The figures of `/metrics` the sizing needs. */
export interface ProcessSample {
  readonly at: number;
  readonly cpuSeconds: number;
  readonly rssBytes: number;
  readonly apiRequests: number;
}

/** Reads one sample from a replica's `/metrics` (prom-client's process metrics and fundbot's request counter). */
export async function sampleProcess(replica: ReplicaProcess): Promise<ProcessSample> {
  const text = await (
    await fetch(`${replica.opsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })
  ).text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return {
    at: Date.now(),
    cpuSeconds: sum('process_cpu_seconds_total'),
    rssBytes: sum('process_resident_memory_bytes'),
    apiRequests: sum('fundbot_api_requests_total'),
  };
}

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait-until.js';

/**
 * A real `redis-server` on 127.0.0.1 for tests and the replicas benchmark. Never a mock:
 * the leases and claims are Lua scripts and SET options whose semantics only Redis has.
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then waits for the process to exit). */
  stop(): Promise<void>;
  /**
   * Kills the server (SIGKILL: a crash) and starts it again on the same port and directory. Without
   * persistence it comes back empty, the worst case a lease must survive; with `aof` it replays its log.
   */
  restart(): Promise<void>;
  /** An outage: stops the server (SIGTERM) but keeps its directory, so {@link start} brings it back (with `aof`, with its data). */
  halt(): Promise<void>;
  /** Starts it again after {@link halt}, on the same port and directory. */
  start(): Promise<void>;
}

export interface RedisServerOptions {
  /**
   * `none` (default): `--save '' --appendonly no`, nothing survives a restart.
   * `aof`: `--appendonly yes --appendfsync always`, every acknowledged write survives a crash (how a
   * production Redis holding fundbot's state should run).
   */
  readonly persistence?: 'none' | 'aof';
  /** More `redis-server` arguments, e.g. `['--rename-command', 'CLIENT', '']` (a managed Redis without CLIENT). */
  readonly extraArgs?: readonly string[];
}

/** Why Redis tests cannot run here, or undefined when `redis-server` is on PATH. */
export function redisUnavailableReason(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    return 'redis-server is not on PATH (install it: apt-get install redis-server)';
  }
  return undefined;
}

/**
 * True when Redis tests must be skipped; prints the reason once per test file so a skip is never silent.
 * Use as `describe.skipIf(skipRedisTests())(...)`.
 */
export function skipRedisTests(): boolean {
  const reason = redisUnavailableReason();
  if (reason !== undefined) console.warn(`${reason}; the Redis tests of this file are skipped`);
  return reason !== undefined;
}

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket: the helper must not depend on the client under test. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a fresh, empty redis-server (not persisting unless asked) on a free port and waits until it answers PING. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const persistence =
    options.persistence === 'aof'
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-redis-'));
  let child: ChildProcess;
  let log = '';

  const launch = async (): Promise<void> => {
    log = '';
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        ...persistence,
        '--dir',
        dir,
        ...(options.extraArgs ?? []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    const exited = () => child.exitCode !== null;
    const answered = await waitUntil(
      `redis-server on port ${port} to answer PING`,
      async () => exited() || ping(port),
      {
        timeoutMs: 10_000,
        everyMs: 20,
      },
    ).catch(() => false);
    if (answered && !exited()) return;
    child.kill('SIGKILL');
    throw new Error(`redis-server on port ${port} did not answer PING within 10 s; its output:\n${log}`);
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      child.kill('SIGKILL');
      await exited(child);
      await launch();
    },
    async halt() {
      child.kill('SIGTERM');
      await exited(child);
    },
    start: launch,
  };
}

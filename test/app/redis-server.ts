import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's redis-server is, or why there is none (the caller skips with that reason). */
export function findRedisServer(): { path: string } | { reason: string } {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '')
    return { reason: 'redis-server is not installed (apt-get install redis-server; .ci/run does it)' };
  return { path };
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A real redis-server on 127.0.0.1 with its own data directory (append-only file,
 * fsync always), so stopping and starting it again keeps the data, as a
 * production Redis with persistence does.
 */
export class LocalRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'fundbot-redis-'));
  #process: ChildProcess | undefined;

  constructor(
    readonly path: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it and resolves once it accepts connections; rejects with its output if it does not. */
  start(): Promise<void> {
    const proc = spawn(
      this.path,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#process = proc;
    let output = '';
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) {
          proc.stdout?.off('data', onData);
          proc.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => reject(new Error(`redis-server exited (${code}): ${output}`));
      proc.stdout?.on('data', onData);
      proc.once('error', reject);
      proc.once('exit', onExit);
    });
  }

  /** Stops it (SIGTERM: it flushes the append-only file) and resolves once it exited. */
  async stop(): Promise<void> {
    const proc = this.#process;
    this.#process = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench:replicas`: three replica processes (replica.ts) share one real redis-server (AOF, fsync always)
 * and 30 projects on the simulator. Mid-run one replica is SIGKILLed and later started again (new id, as a new
 * process would get), another is frozen (SIGSTOP) past its TTL and woken, then Redis is killed and restarted. Prints ONE JSON line:
 *
 * - `failoverMs`: the longest a killed replica's project went unpolled (its last poll before the kill to the
 *   first poll by another replica). Target: at most TTL + one balancer tick (TTL/3) + one poll interval.
 * - `spread`: projects per replica at the end (target: none above fair share + 1).
 * - `redisRestartLost`: projects whose last commit acknowledged before the Redis crash was gone after it (0).
 * - `staleCommitsAccepted`: commits accepted with a token older than one already accepted for the project (0),
 *   including those of a replica frozen with SIGSTOP past its TTL and woken up again.
 *
 * `duplicates` and `misses` (of deliveries) are not measured: the replicas here poll and commit a stand-in
 * state, they do not run the engine; the lead wires the balancer into the engine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connectRedis, type RedisClient } from '../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../src/lib/coordination/redis-lease.js';
import { startSimulator } from '../../src/simulator/index.js';
import { redisUnavailableReason, startRedisServer } from '../../test/support/redis-server.js';
import { type PollLine, stateKey } from './protocol.js';

const projectCount = 30;
const ttlMs = 3_000;
const pollMs = 1_000;
const replicaScript = fileURLToPath(new URL('./replica.ts', import.meta.url));

/** Waits until `check` holds, checking every 100 ms; throws with `what` after `timeoutMs`. */
async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench:replicas: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const unavailable = redisUnavailableReason();
  if (unavailable !== undefined) {
    console.warn(`bench:replicas skipped: ${unavailable}`);
    return;
  }
  const redis = await startRedisServer({ persistence: 'aof' });
  const projects = Array.from({ length: projectCount }, (_, i) => `project-${String(i).padStart(2, '0')}`);
  const sim = await startSimulator({
    seed: 12,
    projects: projects.map((linkCaption) => ({ linkCaption, title: linkCaption, currency: 'EUR' })),
  });
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-replicas-'));
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify(Object.fromEntries(projects.map((p) => [p, sim.issueProjectKey(p)]))),
  );

  const lines: PollLine[] = [];
  const children = new Map<string, ChildProcess>();
  const startReplica = (id: string) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        replicaScript,
        '--id',
        id,
        '--redis',
        redis.url,
        '--sim',
        sim.url,
        '--keys',
        keysFile,
      ].concat(['--ttl', String(ttlMs), '--poll', String(pollMs)]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    createInterface({ input: child.stdout! }).on('line', (line) => lines.push(JSON.parse(line) as PollLine));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('exit', (code, signal) => {
      if (code !== 0 && code !== null && signal === null)
        process.stderr.write(`replica ${id} exited ${code}: ${stderr}\n`);
    });
    children.set(id, child);
  };

  /** True once `project` was polled after `since` (by another replica than `not`, if given). */
  const polledSince = (project: string, since: number, not?: string) =>
    lines.some((l) => l.project === project && l.replica !== not && l.polledAt > since);
  /** The longest any of `affected` went unpolled around `at`: last poll before it to the first one after. */
  const longestGap = (affected: readonly string[], at: number, not?: string) =>
    Math.max(
      ...affected.map((project) => {
        const before = lines.filter((l) => l.project === project && l.polledAt <= at);
        const after = lines.filter((l) => l.project === project && l.replica !== not && l.polledAt > at);
        return Math.min(...after.map((l) => l.polledAt)) - Math.max(...before.map((l) => l.polledAt));
      }),
    );

  let observer: RedisClient = await connectRedis(redis.url, () => {});
  const holders = async () => {
    const found = await redisLease(observer).holders(projects);
    return new Map([...found].map(([project, holder]) => [project, holder.holder]));
  };
  const counts = async (ids: readonly string[]) => {
    const held = [...(await holders()).values()];
    return ids.map((id) => held.filter((holder) => holder === id).length);
  };
  const settled = async (ids: readonly string[]) => {
    const perReplica = await counts(ids);
    const sum = perReplica.reduce((a, b) => a + b, 0);
    return sum === projectCount && Math.max(...perReplica) <= projectCount / ids.length + 1;
  };

  try {
    for (const id of ['r1', 'r2', 'r3']) startReplica(id);
    await until('three replicas to share 30 projects', () => settled(['r1', 'r2', 'r3']));
    await new Promise((resolve) => setTimeout(resolve, 2 * pollMs));

    // SIGKILL r2: no release, no goodbye. Its projects wait for their leases to expire.
    const orphaned = [...(await holders())]
      .filter(([, holder]) => holder === 'r2')
      .map(([project]) => project);
    const killedAt = Date.now();
    children.get('r2')!.kill('SIGKILL');
    children.delete('r2');
    await until("the killed replica's projects to be polled again", () =>
      orphaned.every((project) => polledSince(project, killedAt, 'r2')),
    );
    const failoverMs = longestGap(orphaned, killedAt, 'r2');

    // r2 comes back as a new process: it takes its share again after the others' grace period.
    await new Promise((resolve) => setTimeout(resolve, 2 * pollMs));
    startReplica('r2-restarted');
    const live = ['r1', 'r3', 'r2-restarted'];
    await until('the restarted replica to take its share', () => settled(live));

    // r1 freezes (SIGSTOP: a GC pause, a suspended VM) past its TTL, then wakes up. Its leases were taken
    // meanwhile; whatever it had in flight must be refused by the fence (staleCommitsAccepted stays 0).
    const frozen = [...(await holders())].filter(([, holder]) => holder === 'r1').map(([project]) => project);
    const frozenAt = Date.now();
    children.get('r1')!.kill('SIGSTOP');
    await until("the frozen replica's projects to be polled by the others", () =>
      frozen.every((project) => polledSince(project, frozenAt, 'r1')),
    );
    const pausedFailoverMs = longestGap(frozen, frozenAt, 'r1');
    children.get('r1')!.kill('SIGCONT');
    await until('the woken replica to take its share again', () => settled(live));

    // Redis crashes (SIGKILL) and comes back from its AOF.
    const crashedAt = Date.now();
    const lastAcked = new Map<string, number>();
    for (const line of lines) {
      if (line.commit === 'written' && line.committedAt < crashedAt) {
        lastAcked.set(line.project, Math.max(lastAcked.get(line.project) ?? 0, line.polledAt));
      }
    }
    await redis.restart();
    observer.destroy();
    // A fresh connection reads the restored state before the replicas' reconnect backoff lets them write over it.
    observer = await connectRedis(redis.url, () => {});
    let redisRestartLost = 0;
    for (const project of projects) {
      const stored = await observer.get(stateKey(project));
      const at = stored === null ? 0 : (JSON.parse(stored) as { at: number }).at;
      if (at < (lastAcked.get(project) ?? 0)) redisRestartLost++;
    }
    const restartedAt = Date.now();
    await until('every project to be polled after the Redis restart', () =>
      projects.every((project) => lines.some((l) => l.project === project && l.polledAt > restartedAt)),
    );
    const redisRestartGapMs = longestGap(projects, crashedAt);
    await until('the spread to settle after the Redis restart', () => settled(live));
    const spread = (await counts(live)).sort((a, b) => b - a);

    // Fencing: per project, accepted commits in acknowledgement order never go back to an older token.
    let staleCommitsAccepted = 0;
    for (const project of projects) {
      let highest = 0;
      const written = lines.filter((l) => l.project === project && l.commit === 'written');
      for (const line of written.sort((a, b) => a.committedAt - b.committedAt)) {
        if (line.token < highest) staleCommitsAccepted++;
        highest = Math.max(highest, line.token);
      }
    }
    const figures = {
      replicas: 3,
      projects: projectCount,
      failoverMs,
      spread,
      redisRestartLost,
      staleCommitsAccepted,
      details: {
        ttlMs,
        tickMs: Math.floor(ttlMs / 3),
        pollMs,
        // Worst case: the last poll up to one poll before the kill, the lease renewed just before it, the takeover
        // tick up to one tick after expiry (an acquired project is polled at once).
        failoverBoundMs: ttlMs + Math.floor(ttlMs / 3) + pollMs,
        pausedFailoverMs,
        redisRestartGapMs,
        polls: lines.length,
        commitsRefused: lines.filter((l) => l.commit === 'refused').length,
        commitsFailed: lines.filter((l) => l.commit === 'failed').length,
      },
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGCONT'); // a frozen replica would not act on SIGTERM
            child.kill('SIGTERM');
          }),
      ),
    );
    observer.destroy();
    await sim.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetStatusChecks } from '../../src/app/fleet-health.js';
import type { EngineStatus } from '../../src/domain/read-model.js';
import { readSharedStatus } from '../../src/engine/health/status-board.js';
import { writeStoredStatus } from '../../src/engine/health/status-board-store.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

const projects = ['alpha', 'bravo', 'charlie'];
const notShared: EngineStatus = {
  feeds: [],
  budget: { dayLimit: null, dayRemaining: null, dayResetAt: null, minuteRemaining: null },
  recentErrors: [],
  paused: null,
};

/**
 * `/healthz` on replicas reads every project's shared status from the store (at most every 30 s). A store slow
 * to answer (Redis busy: bench scaleRedis, 3,000 projects, a re-read took 10-18 s) must not hold the answer: it
 * waits half a second, then tells what it read last, and the re-read goes on.
 */
describe.skipIf(skipRedisTests())("the fleet's status checks on a real redis-server", () => {
  let server: RedisServer | undefined;
  let store: KeyValueStore | undefined;

  afterEach(async () => {
    await store?.close();
    await server?.stop();
  });

  it('answer within half a second while Redis is busy, with the last read, and show the re-read once done', async () => {
    // DEBUG SLEEP blocks the real server as a long command or a saturated host would.
    server = await startRedisServer({ extraArgs: ['--enable-debug-command', 'local'] });
    store = await openStore(server.url);
    const shared = store;
    const clock = new ManualClock(Date.UTC(2026, 10, 29, 12));
    const statusReads: string[] = [];
    const checks = fleetStatusChecks({
      readModel: {
        status: async (project) => {
          statusReads.push(project);
          return (await readSharedStatus(shared, project)) ?? notShared;
        },
      },
      projects: () => projects,
      clock,
      access: { list: async () => [] },
    });

    const first = await checks();
    expect(Object.keys(first).sort()).toEqual(['cannot-post', ...projects.map((p) => `status:${p}`)]);
    expect(first['status:alpha']?.detail).toBe('not polled yet');
    expect(statusReads).toHaveLength(3);
    // Within 30 s the answer comes from what was read: no store read.
    clock.advance(10_000);
    expect(await checks()).toEqual(first);
    expect(statusReads).toHaveLength(3);

    // The polling replica shares alpha's status; 30 s on, a re-read is due while Redis is blocked for 3 s.
    const polledAt = clock.now() - 60_000;
    await writeStoredStatus(shared, 'alpha', {
      by: 'replica-b',
      at: polledAt,
      feeds: [{ feed: 'fundings', last: polledAt, every: 15_000 }],
      budget: { dayLimit: null, dayRemaining: null, dayResetAt: null, minuteRemaining: null },
      notes: [],
      paused: null,
    });
    clock.advance(20_000);
    const blocked = await debugSleep(server.port, 3);
    const startedAt = Date.now();
    const answer = checks();
    // The answer waits for the re-read at most half a second of its clock, then tells the last read.
    await waitUntil('the answer waiting on the clock', () => clock.nextWakeAt !== undefined);
    clock.advance(500);
    const during = await answer;
    expect(Date.now() - startedAt).toBeLessThan(2_500);
    expect(during).toEqual(first);
    // A /healthz meanwhile starts no second re-read.
    const again = checks();
    await waitUntil('the second answer waiting on the clock', () => clock.nextWakeAt !== undefined);
    clock.advance(500);
    expect(await again).toEqual(first);
    await blocked.woke;
    // Once Redis answers, the re-read lands and the next /healthz shows it, without reading again.
    await waitUntil('the re-read', () => statusReads.length === 6, { timeoutMs: 10_000 });
    const after = await checks();
    expect(after['status:alpha']?.detail).toBe('last successful poll within the last 15 minutes');
    expect(statusReads).toHaveLength(6);
  }, 30_000);
});

/**
 * Blocks the server for `seconds` (DEBUG SLEEP on a raw connection of its own); `woke` resolves when it answers
 * again (the reply to a PING sent after it on the same connection comes only when the sleep ends).
 */
async function debugSleep(port: number, seconds: number): Promise<{ readonly woke: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let replies = '';
  const done = new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      replies += chunk.toString('utf8');
      if (replies.includes('+PONG')) {
        socket.destroy();
        resolve();
      }
    }),
  );
  await new Promise<void>((resolve) => socket.write(`DEBUG SLEEP ${seconds}\r\nPING\r\n`, () => resolve()));
  // The server reads the command as soon as it gets it; give the loopback that moment.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { woke: done };
}

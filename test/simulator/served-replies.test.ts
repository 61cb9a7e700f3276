import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServedReply } from '../../src/simulator/index.js';
import { get, type Harness, projectSeed, startHarness } from './helpers.js';

let started: Harness | undefined;
afterEach(() => started?.sim.close());

/** A simulator with one project and a recorder of what it serves. */
async function recordingSimulator(): Promise<{ h: Harness; served: ServedReply[]; key: string }> {
  const served: ServedReply[] = [];
  const h = await startHarness({
    projects: [projectSeed({ linkCaption: 'p' })],
    onReply: (reply) => served.push(reply),
  });
  started = h;
  return { h, served, key: h.sim.issueProjectKey('p') };
}

describe('onReply: what the simulator served, and when', () => {
  it('tells each reply with its body as data, the path, the query and the times on the simulator clock', async () => {
    const { h, served, key } = await recordingSimulator();
    const { userId } = h.sim.project('p').addSupporter({ displayName: 'Zoë' });
    const response = await get(h.sim, '/project/p/fundings?limit=5', key);

    expect(served).toHaveLength(1);
    const [reply] = served;
    expect(reply).toMatchObject({
      method: 'GET',
      path: '/project/p/fundings',
      query: { limit: '5' },
      status: 200,
      receivedAt: h.clock.now(),
      sentAt: h.clock.now(),
    });
    // The very entries the client got.
    expect(reply?.body).toEqual(response.body);
    expect(JSON.stringify(reply?.body)).toContain(`"id":${userId}`);
  });

  it('tells refusals too, and the raw text of a fault that sends no JSON', async () => {
    const { h, served, key } = await recordingSimulator();
    await get(h.sim, '/project/p/wall');
    h.sim.faults.serverError({ status: 502, html: true, n: 1 });
    await get(h.sim, '/project/p', key);

    expect(served.map((r) => r.status)).toEqual([401, 502]);
    expect(served[1]?.body).toEqual(expect.stringContaining('<html'));
  });

  it('tells nothing for a request whose client hung up before the reply', async () => {
    const { h, served, key } = await recordingSimulator();
    // The hang-up must come after the request reached the server (a loaded machine can
    // take tens of ms to connect) and well before the slow reply is due.
    h.sim.faults.slow({ delayMs: 1_000, n: 1 });
    const sentAt = performance.now();
    const aborted = get(h.sim, '/project/p', key, { signal: AbortSignal.timeout(250) });
    await expect(aborted).rejects.toThrow();
    // The server sees the hang-up as its socket's `close`, which a loaded machine may
    // deliver well after the client gave up: wait for it rather than for a fixed time.
    await vi.waitFor(() => expect(h.sim.requests.map((r) => r.status)).toEqual([499]), { timeout: 10_000 });
    // The slow reply comes due after the hang-up: nothing is sent, so nothing is told.
    const dueIn = sentAt + 1_000 + 100 - performance.now();
    if (dueIn > 0) await new Promise((resolve) => setTimeout(resolve, dueIn));
    expect(h.sim.requests.map((r) => r.status)).toEqual([499]);
    expect(served).toEqual([]);
  });
});

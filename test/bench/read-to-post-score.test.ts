import { afterEach, describe, expect, it } from 'vitest';
import { fanName } from '../../bench/delivery-faults/score.js';
import { namesListed, scoreReadToPost } from '../../bench/read-to-post-score.js';
import { type ServedReply, type Simulator, startSimulator } from '../../src/simulator/index.js';

/** The readToPostMs judge: from the reply that first listed a supporter to the post that first named it. */
describe('readToPostMs judge', () => {
  const fans = ['Fan 0001', 'Fan 0002'];

  it('times each supporter from the FIRST reply that listed it to the FIRST post that named it', () => {
    const score = scoreReadToPost(
      fans,
      [
        { sentAt: 1_000, names: [] },
        { sentAt: 2_000, names: ['Fan 0001'] },
        { sentAt: 3_000, names: ['Fan 0002', 'Fan 0001'] },
      ],
      [
        { at: 3_010, names: ['Fan 0002'] },
        { at: 2_040, names: ['Fan 0001'] },
        // A later post naming it again (a duplicate, a correction) does not move its time.
        { at: 9_000, names: ['Fan 0001'] },
      ],
    );
    expect(score.samplesMs).toEqual([40, 10]);
    expect(score.readToPostMs).toEqual({ p50: 10, p95: 40, p99: 40, max: 40, samples: 2 });
  });

  it('summarises with the nearest-rank percentiles of bench/stats', () => {
    const names = Array.from({ length: 100 }, (_, i) => fanName(i + 1));
    const score = scoreReadToPost(
      names,
      [{ sentAt: 0, names }],
      names.map((name, i) => ({ at: i + 1, names: [name] })),
    );
    expect(score.readToPostMs).toEqual({ p50: 50, p95: 95, p99: 99, max: 100, samples: 100 });
  });

  it('leaves out, and names, what it cannot time: never listed, never posted, posted before listed', () => {
    const score = scoreReadToPost(
      ['Fan 0001', 'Fan 0002', 'Fan 0003'],
      [{ sentAt: 5_000, names: ['Fan 0002', 'Fan 0003'] }],
      [
        { at: 6_000, names: ['Fan 0001'] },
        { at: 4_000, names: ['Fan 0003'] },
      ],
    );
    expect(score).toMatchObject({
      neverServed: ['Fan 0001'],
      neverPosted: ['Fan 0002'],
      postedBeforeServed: ['Fan 0003'],
      samplesMs: [],
    });
    expect(score.readToPostMs.samples).toBe(0);
  });

  describe('the supporters a fundings reply lists, as the simulator serves it', () => {
    let sim: Simulator | undefined;
    afterEach(() => sim?.close());

    it('finds the bench names in the body onReply hands over, and nothing in another list', async () => {
      const served: ServedReply[] = [];
      sim = await startSimulator({
        projects: [{ linkCaption: 'launch', title: 'Launch', currency: 'EUR' }],
        onReply: (reply) => served.push(reply),
      });
      const key = sim.issueProjectKey('launch');
      sim.project('launch').addSupporter({ displayName: 'Fan 0001' });
      sim.project('launch').addSupporter({ displayName: 'Someone else' });
      sim.project('launch').addWallPost({ message: 'Fan 0002 says hi' });
      for (const path of ['fundings', 'wall'])
        await fetch(`${sim.url}/project/launch/${path}`, { headers: { authorization: `Bearer ${key}` } });

      expect(served.map((r) => [r.path, r.status])).toEqual([
        ['/project/launch/fundings', 200],
        ['/project/launch/wall', 200],
      ]);
      expect(namesListed(served[0]?.body)).toEqual(['Fan 0001']);
      expect(namesListed(served[1]?.body)).toEqual([]);
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignShare, RendezvousScores } from '../../../src/lib/coordination/assign-share.js';

const projectsOf = (count: number) => Array.from({ length: count }, (_, i) => `p${i}`);
const replicasOf = (count: number) => Array.from({ length: count }, (_, i) => `r${i}`);

/** Lets every replica act on its decision in turn, as ticks on one shared lease table would, for `rounds` rounds. */
function settle(
  replicas: readonly string[],
  projects: readonly string[],
  holders: Map<string, string>,
  rounds = 6,
) {
  for (let round = 0; round < rounds; round++) {
    for (const self of replicas) {
      const decision = assignShare({ self, replicas, projects, holders });
      for (const project of decision.excess) holders.delete(project);
      for (const project of decision.acquire) if (!holders.has(project)) holders.set(project, self);
    }
  }
  const counts = replicas.map(
    (replica) => [...holders.values()].filter((holder) => holder === replica).length,
  );
  return counts;
}

describe('assignShare', () => {
  it('spreads 30 projects over 3 replicas as 10 each', () => {
    const counts = settle(replicasOf(3), projectsOf(30), new Map());
    expect(counts).toEqual([10, 10, 10]);
  });

  it('asks a replica below its share for free projects only, and at most up to its share', () => {
    const holders = new Map([
      ['p0', 'r1'],
      ['p1', 'r1'],
    ]);
    const decision = assignShare({ self: 'r0', replicas: ['r0', 'r1'], projects: projectsOf(6), holders });
    expect(decision.share).toBe(3);
    expect(decision.acquire).toHaveLength(3);
    expect(decision.acquire).not.toContain('p0');
    expect(decision.acquire).not.toContain('p1');
  });

  it('gives up the excess only while another live replica is below its share', () => {
    const projects = projectsOf(4);
    const allMine = new Map(projects.map((project) => [project, 'r0']));
    const alone = assignShare({ self: 'r0', replicas: ['r0'], projects, holders: allMine });
    expect(alone.excess).toEqual([]);
    const joined = assignShare({ self: 'r0', replicas: ['r0', 'r1'], projects, holders: allMine });
    expect(joined.share).toBe(2);
    expect(joined.excess).toHaveLength(2);
  });

  it('does not count a dead replica (absent from the live list) in the share', () => {
    // r2 died: its leases have not expired yet, and it is no longer in the registry.
    const holders = new Map(projectsOf(9).map((project, i) => [project, `r${i % 3}`]));
    const decision = assignShare({ self: 'r0', replicas: ['r0', 'r1'], projects: projectsOf(9), holders });
    expect(decision.share).toBe(5);
    expect(decision.acquire).toEqual([]); // nothing is free until r2's leases expire
    for (const project of ['p2', 'p5', 'p8']) holders.delete(project); // they expire
    const after = assignShare({ self: 'r0', replicas: ['r0', 'r1'], projects: projectsOf(9), holders });
    const other = assignShare({ self: 'r1', replicas: ['r0', 'r1'], projects: projectsOf(9), holders });
    // Both below their share of 5 by 2: the three free projects split between them, none claimed twice.
    expect([...after.acquire, ...other.acquire].sort()).toEqual(['p2', 'p5', 'p8']);
  });

  it('takes a project free at two of its ticks in a row whatever its share, where a dead replica still counted would leave it', () => {
    // r1 died a moment ago: its beat still counts it (and it holds nothing), r2 froze past its TTL and its lease on
    // p1 expired. r0 is at its share of ceil(2/2) = 1, and the plan gives p1 to r1, which cannot take it.
    const holders = new Map([['p0', 'r0']]);
    const input = { self: 'r0', replicas: ['r0', 'r1'], projects: projectsOf(2), holders };
    expect(assignShare(input).acquire).toEqual([]);
    // Still free at r0's next tick: r0 takes it.
    expect(assignShare({ ...input, stillFree: ['p1'] }).acquire).toEqual(['p1']);
  });

  it('gives every free project to one replica below its share, alike on every replica that sees the same view', () => {
    const projects = projectsOf(12);
    // r3 died: its four projects are free; the others hold four each and aim at ceil(12/3) = 4... plus its share.
    const holders = new Map(projects.slice(0, 8).map((p, i) => [p, `r${i % 2}`]));
    const replicas = ['r0', 'r1', 'r2'];
    const claims = replicas.map((self) => assignShare({ self, replicas, projects, holders }).acquire);
    // r2 holds nothing: it is below its share of 4 and gets the free ones the plan gives it; nobody claims twice.
    expect(claims.flat().sort()).toEqual(projects.slice(8).sort());
    expect(new Set(claims.flat()).size).toBe(claims.flat().length);
  });

  it('prefers different free projects on different replicas', () => {
    const projects = projectsOf(30);
    const a = assignShare({ self: 'r0', replicas: replicasOf(3), projects, holders: new Map() });
    const b = assignShare({ self: 'r1', replicas: replicasOf(3), projects, holders: new Map() });
    const overlap = a.acquire.filter((project) => b.acquire.includes(project));
    expect(overlap.length).toBeLessThan(10);
  });

  it('has replicas that see the same live list reach for disjoint projects, so claims made together do not collide', () => {
    const projects = projectsOf(300);
    const claims = replicasOf(3).map(
      (self) => assignShare({ self, replicas: replicasOf(3), projects, holders: new Map() }).acquire,
    );
    expect(claims.map((claim) => claim.length)).toEqual([100, 100, 100]);
    // Each takes the projects it scores highest for; only a replica with fewer than its share of those reaches
    // further (here 284 distinct). Each replica's own top 100 by its score alone would be about 211 distinct.
    expect(new Set(claims.flat()).size).toBeGreaterThanOrEqual(270);
  });

  it('from any start, holds every project with nobody above ceil(P/N) (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 60 }),
        (replicaCount, projectCount, initialOwners) => {
          const replicas = replicasOf(replicaCount);
          const projects = projectsOf(projectCount);
          // A start left by earlier replicas, some of them gone (owner index ≥ replicaCount: expired away).
          const holders = new Map<string, string>();
          projects.forEach((project, i) => {
            const owner = initialOwners[i];
            if (owner !== undefined && owner < replicaCount) holders.set(project, `r${owner}`);
          });
          const counts = settle(replicas, projects, holders, 4);
          expect(holders.size).toBe(projectCount);
          const share = Math.ceil(projectCount / replicaCount);
          expect(Math.max(...counts)).toBeLessThanOrEqual(share);
          expect(Math.max(...counts)).toBeLessThanOrEqual(projectCount / replicaCount + 1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('scores kept across ticks (and the fleet changing) decide as scores computed afresh', () => {
    const scores = new RendezvousScores();
    const projects = projectsOf(60);
    const holders = new Map<string, string>();
    const ticks: { replicas: string[]; self: string }[] = [
      { replicas: ['r0', 'r1', 'r2'], self: 'r0' },
      { replicas: ['r0', 'r1', 'r2'], self: 'r1' },
      { replicas: ['r0', 'r3'], self: 'r0' },
      { replicas: ['r0', 'r3', 'r4'], self: 'r3' },
    ];
    for (const { replicas, self } of ticks) {
      const fresh = assignShare({ self, replicas, projects, holders });
      expect(assignShare({ self, replicas, projects, holders, scores })).toEqual(fresh);
      for (const project of fresh.acquire) holders.set(project, self);
      for (const project of fresh.excess) holders.delete(project);
      for (const [project, holder] of holders) if (!replicas.includes(holder)) holders.delete(project);
    }
    scores.bound(1);
    const fresh = assignShare({ self: 'r4', replicas: ['r0', 'r3', 'r4'], projects, holders });
    expect(assignShare({ self: 'r4', replicas: ['r0', 'r3', 'r4'], projects, holders, scores })).toEqual(
      fresh,
    );
  });

  it('a kept score is the score of its own replica and project, whatever was asked before', () => {
    const kept = new RendezvousScores();
    const pairs = replicasOf(4).flatMap((replica) =>
      projectsOf(30).map((project) => [replica, project] as const),
    );
    for (const [replica, project] of pairs) kept.of(replica, project);
    for (const [replica, project] of pairs.reverse()) {
      expect(kept.of(replica, project)).toBe(new RendezvousScores().of(replica, project));
    }
    expect(new Set(pairs.map(([replica, project]) => kept.of(replica, project))).size).toBe(pairs.length);
  });
});

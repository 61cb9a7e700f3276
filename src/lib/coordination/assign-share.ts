import { createHash } from 'node:crypto';

/** What one replica sees at a balancing tick. */
export interface ShareInput {
  /** This replica's id. */
  readonly self: string;
  /** Live replicas (from the heartbeat registry); `self` counts even if its first beat is not in yet. */
  readonly replicas: readonly string[];
  /** Every project to poll. */
  readonly projects: readonly string[];
  /** Live leases: project → holder. A project absent here is free. */
  readonly holders: ReadonlyMap<string, string>;
}

/** What to do about it. */
export interface ShareDecision {
  /** ceil(projects / live replicas): nobody needs more, so nobody ends above the fair share + 1. */
  readonly share: number;
  /** Projects this replica holds. */
  readonly held: readonly string[];
  /** Free projects to try to acquire (as many as this replica is below its share). */
  readonly acquire: readonly string[];
  /** Held projects above the share that another live replica, below its share, could take. */
  readonly excess: readonly string[];
}

/**
 * The fair-spread policy, pure. Each replica aims at ceil(P/N) projects: one below it takes free projects, one
 * above it gives up the excess while another live replica is below its share. Because N × ceil(P/N) ≥ P, a free
 * project always finds a replica below its share, so none stays orphaned longer than one tick after its lease
 * expired. Which projects a replica prefers is rendezvous hashing (hash of replica + project): first the
 * projects it scores highest for among the live replicas (its own; the others' own ones are theirs), then the
 * rest by its score. Replicas that see the same live list reach for disjoint free projects, so a fleet starting
 * together claims its shares at once instead of racing for the same projects and waiting a tick for the
 * leftovers; and a replica above its share gives up the projects it prefers least, other replicas' own first.
 *
 * Cost: one SHA-1 per held or free project and live replica; nothing while nothing is free or in excess.
 */
export function assignShare(input: ShareInput): ShareDecision {
  const live = new Set(input.replicas);
  live.add(input.self);
  const share = Math.ceil(input.projects.length / live.size);
  const listed = new Set(input.projects);

  const counts = new Map<string, number>();
  for (const [project, holder] of input.holders) {
    if (listed.has(project)) counts.set(holder, (counts.get(holder) ?? 0) + 1);
  }
  const preference = preferenceOf(input.self, [...live]);
  const byPreference = (a: string, b: string) => preference(b) - preference(a) || a.localeCompare(b);

  const held = input.projects
    .filter((project) => input.holders.get(project) === input.self)
    .sort(byPreference);
  const free = input.projects.filter((project) => !input.holders.has(project)).sort(byPreference);
  const acquire = free.slice(0, Math.max(0, share - held.length));

  const someoneBelowShare = [...live].some(
    (replica) => replica !== input.self && (counts.get(replica) ?? 0) < share,
  );
  const excess = held.length > share && someoneBelowShare ? held.slice(share) : [];
  return { share, held, acquire, excess };
}

/** Above every score: a project `self` scores highest for among the live replicas ranks before all the others. */
const OWN = 2 ** 48;

/** How much `self` prefers a project (higher first), computed once per project. */
function preferenceOf(self: string, live: readonly string[]): (project: string) => number {
  const memo = new Map<string, number>();
  return (project) => {
    let preference = memo.get(project);
    if (preference === undefined) {
      const score = rendezvousScore(self, project);
      const own = live.every((replica) => replica === self || rendezvousScore(replica, project) < score);
      preference = own ? OWN + score : score;
      memo.set(project, preference);
    }
    return preference;
  };
}

/** A stable pseudo-random score of (replica, project): the first 6 bytes of a SHA-1, as a number. */
function rendezvousScore(replica: string, project: string): number {
  return createHash('sha1').update(`${replica}\n${project}`).digest().readUIntBE(0, 6);
}

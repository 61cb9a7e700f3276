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
  /**
   * Free projects that were free at this replica's previous tick too: the replica the plan gave them to did not
   * take them (it died or froze a moment ago and still counts as live). Taken whatever the share. Default none.
   */
  readonly stillFree?: readonly string[];
  /**
   * Scores remembered from the replica's earlier ticks (they never change for a replica and a project). Default
   * a fresh one: every score computed again.
   */
  readonly scores?: RendezvousScores;
}

/**
 * Rendezvous scores of (replica, project), each computed once (a SHA-1) and then looked up: a balancer keeps one
 * across its ticks. A tick of a replica holding 1,000 of 3,000 projects computed 3,000 hashes to rank what it
 * holds, and a joining fleet ticks every second.
 */
export class RendezvousScores {
  readonly #byReplica = new Map<string, Map<string, number>>();
  #size = 0;

  /** The score of (replica, project). */
  of(replica: string, project: string): number {
    let scores = this.#byReplica.get(replica);
    if (scores === undefined) {
      scores = new Map();
      this.#byReplica.set(replica, scores);
    }
    let score = scores.get(project);
    if (score === undefined) {
      score = rendezvousScore(replica, project);
      scores.set(project, score);
      this.#size++;
    }
    return score;
  }

  /** Forgets them all once more than `limit` are kept: replicas come and go, and the gone ones' scores would stay. */
  bound(limit: number): void {
    if (this.#size <= limit) return;
    this.#byReplica.clear();
    this.#size = 0;
  }
}

/** What to do about it. */
export interface ShareDecision {
  /** ceil(projects / live replicas): nobody needs more, so nobody ends above the fair share + 1. */
  readonly share: number;
  /** Projects this replica holds. */
  readonly held: readonly string[];
  /** Free projects to try to acquire: its part of the free ones while below its share, and the still-free ones. */
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
 * A free project seen free at two ticks of a replica in a row is taken by it whatever its share. The share and
 * the plan count the replicas in the registry, and one that died or froze a moment ago is still there (its beat
 * lives 2/3 of a TTL): when a lease expires in that moment, the plan may give the project to the one that cannot
 * take it, or every replica alive may be at its share while the one "below" it is the dead one, and the project
 * waited until the dead beat expired and a tick more (the lease model test, test/lib/coordination/
 * lease-model.test.ts, found projects unpolled 4.1-4.95 s at a 3 s TTL; up to TTL + 2/3 TTL + a tick). A replica
 * alive below its share takes its part at its first look, before anyone's second: a plain death is still taken
 * over evenly, and whoever ends above the share gives the excess up after the grace, as after any join.
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
  const scores = input.scores ?? new RendezvousScores();
  const preference = preferenceOf(input.self, [...live], scores);
  const byPreference = (a: string, b: string) => preference(b) - preference(a) || a.localeCompare(b);

  const held = input.projects
    .filter((project) => input.holders.get(project) === input.self)
    .sort(byPreference);
  const free = input.projects.filter((project) => !input.holders.has(project));
  // Below its share a replica takes its part of the free projects; the still-free ones whatever its share.
  const planned =
    held.length < share
      ? (planFree(
          free,
          [...live].sort(),
          new Map([...live].map((r) => [r, Math.max(0, share - (counts.get(r) ?? 0))])),
          scores,
        ).get(input.self) ?? [])
      : [];
  const taken = new Set(planned);
  const stillFree = (input.stillFree ?? []).filter(
    (p) => listed.has(p) && !input.holders.has(p) && !taken.has(p),
  );
  const acquire = [...planned, ...stillFree];

  const someoneBelowShare = [...live].some(
    (replica) => replica !== input.self && (counts.get(replica) ?? 0) < share,
  );
  const excess = held.length > share && someoneBelowShare ? held.slice(share) : [];
  return { share, held, acquire, excess };
}

/**
 * Who takes which free project, computed alike by every replica that sees the same view, so claims made in the
 * same moment do not collide: a free project goes to its owner (the live replica scoring highest for it) while
 * the owner is below its share, its highest-scored ones first; the rest, in name order, each to the replica
 * below its share that scores it highest. (Each replica taking its own preference instead collided when an owner
 * had more own free projects than room: after a death two survivors reached for the same one, and the loser's
 * wait of a join step left a project unpolled past the TTL plus a tick in the lease model test.)
 */
function planFree(
  free: readonly string[],
  replicas: readonly string[],
  deficits: Map<string, number>,
  rendezvous: RendezvousScores,
): Map<string, string[]> {
  const plan = new Map<string, string[]>(replicas.map((r) => [r, []]));
  const scores = new Map<string, number[]>();
  const scoresOf = (project: string) => {
    let found = scores.get(project);
    if (found === undefined) {
      found = replicas.map((r) => rendezvous.of(r, project));
      scores.set(project, found);
    }
    return found;
  };
  const best = (project: string, among: (index: number) => boolean) => {
    const all = scoresOf(project);
    let pick = -1;
    for (let i = 0; i < replicas.length; i++) {
      if (among(i) && (pick < 0 || (all[i] ?? 0) > (all[pick] ?? 0))) pick = i;
    }
    return pick;
  };
  const owned = new Map<number, string[]>();
  for (const project of free) {
    const owner = best(project, () => true);
    // Pushed in place: copying the list per project was quadratic (3,000 free projects at a fleet's start).
    const list = owned.get(owner);
    if (list === undefined) owned.set(owner, [project]);
    else list.push(project);
  }
  const leftovers: string[] = [];
  for (const [owner, projects] of owned) {
    const name = replicas[owner] as string;
    const room = deficits.get(name) ?? 0;
    projects.sort((a, b) => (scoresOf(b)[owner] ?? 0) - (scoresOf(a)[owner] ?? 0) || a.localeCompare(b));
    plan.get(name)?.push(...projects.slice(0, room));
    deficits.set(name, room - Math.min(room, projects.length));
    leftovers.push(...projects.slice(room));
  }
  leftovers.sort();
  for (const project of leftovers) {
    const pick = best(project, (i) => (deficits.get(replicas[i] as string) ?? 0) > 0);
    if (pick < 0) break;
    const name = replicas[pick] as string;
    plan.get(name)?.push(project);
    deficits.set(name, (deficits.get(name) ?? 0) - 1);
  }
  return plan;
}

/** Above every score: a project `self` scores highest for among the live replicas ranks before all the others. */
const OWN = 2 ** 48;

/** How much `self` prefers a project (higher first), computed once per project. */
function preferenceOf(
  self: string,
  live: readonly string[],
  scores: RendezvousScores,
): (project: string) => number {
  const memo = new Map<string, number>();
  return (project) => {
    let preference = memo.get(project);
    if (preference === undefined) {
      const score = scores.of(self, project);
      const own = live.every((replica) => replica === self || scores.of(replica, project) < score);
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

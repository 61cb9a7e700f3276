import { blogPostKey, fundingKey, wallPostKey } from '../src/api/stable-keys.js';
import type { FundbotEvent } from '../src/engine/index.js';
import { demoLinkCaption, type Simulator } from '../src/simulator/index.js';

/**
 * The campaign day's accounting: what really happened on the simulator (the ground truth) and how the
 * notices the engine delivered compare to it (duplicates, misses, spurious notices, latency per feed).
 */

export interface Truth {
  /** Every entry key that ever existed (failed supports and removed posts included). */
  readonly existed: Set<string>;
  /** key -> epoch ms it happened. */
  readonly supporters: Map<string, number>;
  readonly wall: Map<string, number>;
  readonly blog: Map<string, number>;
  /** Supporters a simulator fault made (the page-shift fault's arrivals), not the scenario. */
  readonly faultMade: Set<string>;
}

/** The entry key of a support, as the engine's stable keys name it. */
export function supportKey(k: { supportTimestamp: number; userId: number }): string {
  return fundingKey({ support_timestamp: k.supportTimestamp, user: { id: k.userId, display_name: '' } });
}

/** Every public supporter, wall post and blog post of the day still there at its end. */
export function groundTruth(sim: Simulator, start: number, inBaseline: ReadonlySet<string>): Truth {
  const truth: Truth = {
    existed: new Set(),
    supporters: new Map(),
    wall: new Map(),
    blog: new Map(),
    faultMade: new Set(),
  };
  const failed = new Set<string>();
  const removed = new Set<string>();
  for (const h of sim.project(demoLinkCaption).history) {
    if (h.at < start) continue;
    if (h.type === 'supporter') {
      truth.supporters.set(supportKey(h.key), h.at);
      if (h.madeByFault !== undefined) truth.faultMade.add(supportKey(h.key));
    } else if (h.type === 'support-failed') failed.add(supportKey(h.key));
    else if (h.type === 'wall-post') truth.wall.set(wallPostKey({ id: h.id }), h.at);
    else if (h.type === 'wall-post-removed') removed.add(wallPostKey({ id: h.id }));
    else if (h.type === 'blog-post') truth.blog.set(blogPostKey({ id: h.id }), h.at);
  }
  for (const m of [truth.supporters, truth.wall, truth.blog]) for (const k of m.keys()) truth.existed.add(k);
  for (const k of [...failed, ...removed, ...inBaseline]) truth.existed.add(k);
  for (const k of [...failed, ...inBaseline]) truth.supporters.delete(k);
  for (const k of inBaseline) truth.wall.delete(k);
  for (const k of removed) truth.wall.delete(k);
  return truth;
}

/** Entry keys an event announces, with the feed they belong to. */
function announced(event: FundbotEvent): { feed: 'fundings' | 'wall' | 'blog'; key: string }[] {
  switch (event.type) {
    case 'supporter':
      return [{ feed: 'fundings', key: event.entryKey ?? event.id }];
    case 'supporter-burst':
      return (event.entryKeys ?? []).map((key) => ({ feed: 'fundings' as const, key }));
    case 'wall-post':
      return [{ feed: 'wall', key: wallPostKey({ id: event.postId }) }];
    case 'wall-post-burst':
      return (event.postIds ?? []).map((id) => ({ feed: 'wall' as const, key: wallPostKey({ id }) }));
    case 'blog-post':
      return [{ feed: 'blog', key: blogPostKey({ id: event.postId }) }];
    default:
      return [];
  }
}

export interface DeliveryScore {
  readonly truth: Truth;
  /** Entry key -> how many notices announced it. */
  readonly counts: ReadonlyMap<string, number>;
  /** Delay from happening to notice, per feed, without late supports and the restart's catch-up. */
  readonly latency: { readonly fundings: number[]; readonly wall: number[]; readonly blog: number[] };
  /**
   * `latency.fundings` split by who made the supporter: the scenario (what a poller of the same day without the
   * fault meets too) or the page-shift fault (an arrival the engine's own deeper read set off, just after a read).
   */
  readonly fundingsBySource: { readonly scenario: number[]; readonly fault: number[] };
  /** Delay of the late supports, from turning successful to notice. */
  readonly lateLatency: number[];
  /** Delay of what the restarted process caught up on in its first step (the outage, not the polling). */
  readonly catchUp: number[];
  /** Supporter delays with the restart's catch-up included. */
  readonly withRestart: number[];
  /** Announced keys that never existed. */
  readonly spurious: number;
  /** Notices beyond the first for the same key. */
  readonly duplicates: number;
  /** Keys of the ground truth no notice announced. */
  readonly missed: string[];
}

/**
 * Scores what the engine delivered against the simulator's ground truth from `start`. `late` holds
 * the late supports (key -> epoch ms they turned successful); `restartedAt` is when the restarted
 * process ran its first step.
 */
export function scoreDeliveries(input: {
  readonly sim: Simulator;
  readonly start: number;
  readonly inBaseline: ReadonlySet<string>;
  readonly late: ReadonlyMap<string, number>;
  readonly delivered: readonly { readonly event: FundbotEvent; readonly at: number }[];
  readonly restartedAt: number;
}): DeliveryScore {
  const { late, restartedAt } = input;
  const truth = groundTruth(input.sim, input.start, input.inBaseline);
  // A late support happened when it turned successful, not at its (older) support_timestamp.
  for (const [k, at] of late) {
    truth.supporters.set(k, at);
    truth.existed.add(k);
  }
  const lateLatency: number[] = [];

  const counts = new Map<string, number>();
  const latency = { fundings: [] as number[], wall: [] as number[], blog: [] as number[] };
  const fundingsBySource = { scenario: [] as number[], fault: [] as number[] };
  const catchUp: number[] = [];
  const withRestart = [] as number[];
  let spurious = 0;
  for (const { event, at } of input.delivered) {
    for (const { feed, key: k } of announced(event)) {
      counts.set(k, (counts.get(k) ?? 0) + 1);
      if (!truth.existed.has(k)) spurious += 1;
      const happened =
        feed === 'fundings'
          ? truth.supporters.get(k)
          : feed === 'wall'
            ? truth.wall.get(k)
            : truth.blog.get(k);
      if (happened === undefined) continue;
      if (late.has(k)) {
        lateLatency.push(at - happened);
        continue;
      }
      if (feed === 'fundings') withRestart.push(at - happened);
      // What the restarted process caught up on (it happened before that process started) is reported
      // apart: its delay is the outage, not the polling. Not only its first step's: a first step that
      // reads something else first (the User key's baseline) announces it a moment later.
      if (restartedAt >= 0 && happened < restartedAt && at >= restartedAt) catchUp.push(at - happened);
      else {
        latency[feed].push(at - happened);
        if (feed === 'fundings')
          fundingsBySource[truth.faultMade.has(k) ? 'fault' : 'scenario'].push(at - happened);
      }
    }
  }
  let duplicates = 0;
  for (const n of counts.values()) duplicates += Math.max(0, n - 1);
  const missed = [...truth.supporters.keys(), ...truth.wall.keys(), ...truth.blog.keys()].filter(
    (k) => !counts.has(k),
  );
  return {
    truth,
    counts,
    latency,
    fundingsBySource,
    lateLatency,
    catchUp,
    withRestart,
    spurious,
    duplicates,
    missed,
  };
}

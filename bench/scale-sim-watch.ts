/**
 * What the scale bench's simulator (bench/scale-sim-child.ts) sees of the bot, from the replies it sends:
 * when each project had every feed answered once (its first polls), and when each project's fundings list
 * was read afresh (a request for its first page: one per poll, whatever pages follow).
 */
import type { ServedReply } from '../src/simulator/index.js';
import { summarize } from './stats.js';

export interface ScaleSimOptions {
  /**
   * The simulator on the real clock with only its rate-limit day shifted to start just before the run (for a bot
   * in its own process, which runs on the real clock); otherwise its whole clock is shifted, as the in-process
   * bot's is (bench/shifted-clock.ts).
   */
  readonly realClock?: boolean;
  /** New supporters a minute, each at a random project (default none). */
  readonly supportersPerMinute?: number;
  /** Supporters each project holds at the start (default 30), spread over the days before. */
  readonly supportersEach?: number;
}

/** The feeds a project's first polls read: the project, its rewards and its three lists. */
const feedBits: Readonly<Record<string, number>> = {
  project: 1,
  fundings: 2,
  wall: 4,
  blog: 8,
  incentives: 16,
};
const allFeeds = 31;
const pathPattern = /^\/project\/([^/]+)(?:\/(fundings|wall|blog|incentives))?$/;

export interface FirstPolls {
  /** Projects whose five feeds were all answered 200 at least once. */
  readonly fullyPolled: number;
  /** Epoch ms (real clock) when the last of them was. */
  readonly lastFullAt: number;
}

export class SimWatch {
  readonly #feeds = new Map<string, number>();
  readonly #fundingsReads = new Map<string, number[]>();
  #fullyPolled = 0;
  #lastFullAt = 0;
  /** When each project's five feeds were first all answered (real epoch ms). */
  readonly #fullAt = new Map<string, number>();

  constructor(readonly projects: number) {}

  /** Replies by feed and status (`fundings 200`), for reading where the requests went. */
  readonly replies = new Map<string, number>();

  served(reply: ServedReply, at: number): void {
    const match = pathPattern.exec(reply.path);
    const feed = match?.[2] ?? (match === null ? reply.path : 'project');
    const label = `${feed} ${reply.status}`;
    this.replies.set(label, (this.replies.get(label) ?? 0) + 1);
    if (reply.status !== 200 || match === null) return;
    const project = match[1] ?? '';
    const before = this.#feeds.get(project) ?? 0;
    const after = before | (feedBits[feed] ?? 0);
    if (after !== before) {
      this.#feeds.set(project, after);
      if (after === allFeeds) {
        this.#fullyPolled += 1;
        this.#lastFullAt = at;
        this.#fullAt.set(project, at);
      }
    }
    if (feed === 'fundings' && (reply.query['offset'] ?? '0') === '0') {
      const reads = this.#fundingsReads.get(project);
      if (reads === undefined) this.#fundingsReads.set(project, [at]);
      else reads.push(at);
    }
  }

  firstPolls(): FirstPolls & { readonly replies: Record<string, number> } {
    return {
      fullyPolled: this.#fullyPolled,
      lastFullAt: this.#lastFullAt,
      replies: Object.fromEntries(this.replies),
    };
  }

  /** When each fully polled project was first fully polled (real epoch ms). */
  fullAt(): Record<string, number> {
    return Object.fromEntries(this.#fullAt);
  }

  /**
   * The gaps between two consecutive fundings reads of a project, both within [from, to] (real epoch ms),
   * over every project: the pace the bot keeps there.
   */
  fundingsIntervals(from: number, to: number): ReturnType<typeof summarize> & { readonly samples: number } {
    const gaps: number[] = [];
    for (const reads of this.#fundingsReads.values()) {
      let previous: number | undefined;
      for (const at of reads) {
        if (at < from || at > to) continue;
        if (previous !== undefined) gaps.push(at - previous);
        previous = at;
      }
    }
    return { ...summarize(gaps), samples: gaps.length };
  }
}

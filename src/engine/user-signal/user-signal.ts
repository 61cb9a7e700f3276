import {
  type ApiClient,
  ApiError,
  RateLimitError,
  UnauthorizedError,
  type UserApi,
  type UserKey,
} from '../../api/index.js';
import type { Logger } from '../../domain/logger.js';
import { type BackoffPolicy, backoffMs } from '../../lib/backoff.js';
import type { Clock } from '../../lib/clock.js';
import type { Random } from '../../lib/random.js';
import { planIntervals } from '../schedule/budget-plan.js';
import { CredentialGate, DeferredError } from '../schedule/credential-gate.js';
import { recheckBackoff } from '../schedule/key-pause.js';
import {
  latestUserRead,
  publishUserRead,
  type SharedUserRead,
  type UserSignalShare,
} from './user-signal-share.js';

/**
 * Share of the user key's day and minute budget left unused: the signal spends at
 * most 90% of it (4,500 of the spec's 5,000 a day), never more.
 */
export const USER_SIGNAL_RESERVE_SHARE = 0.1;

/** The spec's User API key limits (Limits section), assumed until the first response reports the real ones. */
const assumedUserBudget = (now: number) => ({
  dayLimit: 5_000,
  dayRemaining: 5_000,
  dayResetAt: Math.floor(now / 86_400_000 + 1) * 86_400_000,
  minuteLimit: 60,
  minuteRemaining: 60,
  minuteResetAt: now + 60_000,
});

/** Largest page `/user/me/projects` serves (spec, Pagination). */
const PAGE_LIMIT = 100;

/** A follower looks this long after the reader's planned read (its read and write take a moment). */
const FOLLOW_LAG_MS = 500;
/** A follower that found no newer read (the reader is gone or late) looks again this often. */
const FOLLOW_RETRY_MS = 5_000;

/** A failed read retries after 5 s doubling to 10 minutes; a rejected key is re-checked on the engine's recheckBackoff. */
const failedReadBackoff: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 'spread' };

/** What the signal reports to: the engine. */
export interface UserSignalTarget {
  /** The link captions the engine polls (only these are compared). */
  watched(): Iterable<string>;
  /**
   * The signal read a watched project's counts (not the first sight) and reads again about
   * `signalIntervalMs` later; `moved` when its `supporter_count` or `current_funding` changed.
   * Only schedules polls (signal-interleave.ts): never makes a notice itself.
   */
  looked(linkCaption: string, signalIntervalMs: number, moved: boolean): void;
}

export interface UserSignalOptions {
  readonly api: ApiClient;
  readonly key: UserKey;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** No read more often than this (politeness floor, as for the feeds). Default 1 s. */
  readonly minIntervalMs?: number;
  /**
   * The configured projects: the key's owner should be a member of each, or the key cannot see it. Those it
   * does not list at its first read are named in one warning.
   */
  readonly members?: readonly string[];
  /** Replicas: one reader per fleet (its lease); the others follow its shared reads (user-signal-share.ts). */
  readonly shared?: UserSignalShare;
}

/** What the signal knows about one own project at its last read. */
interface Seen {
  readonly supporters: number;
  readonly funding: number;
}

/**
 * A change signal from a User API key: reads `GET /user/me/projects` (every own
 * and team project's `supporter_count` and `current_funding`, up to 100 a page)
 * on the user key's own budget and tells the engine which watched project moved.
 *
 * Budget: its own {@link CredentialGate} on the user key's `X-RateLimit-*` figures
 * (the transport reads them per key) keeps {@link USER_SIGNAL_RESERVE_SHARE} of the
 * day and the minute untouched; the interval is what is left of the day spread
 * to its reset (budget-plan.ts), times the pages a read takes. Costs no project
 * key request itself; each moved project costs one fundings poll on its own key,
 * which that key's planner accounts for after the poll (it re-plans from headers).
 */
export class UserSignal {
  readonly #user: UserApi;
  readonly #gate = new CredentialGate(USER_SIGNAL_RESERVE_SHARE);
  readonly #seen = new Map<string, Seen>();
  #dueAt: number;
  #pages = 1;
  #failures = 0;
  /** The key was refused at the last read: the error is logged once, not at every re-check. */
  #refused = false;
  #inFlight: Promise<void> | null = null;
  #reads = 0;
  #signals = 0;
  #follows = 0;
  /** Epoch ms of the last shared read this follower took. */
  #followedAt = 0;
  #membersChecked = false;

  constructor(private readonly options: UserSignalOptions) {
    this.#user = options.api.user(options.key);
    this.#dueAt = options.clock.now();
  }

  /** Epoch ms of the next read (never earlier than the key's Retry-After pause); none while one runs. */
  get dueAt(): number {
    if (this.#inFlight !== null) return Number.POSITIVE_INFINITY;
    return Math.max(this.#dueAt, this.options.api.pausedUntil(this.options.key));
  }

  /** Reads made (of the API), shared reads followed, and fundings polls asked for, for metrics. */
  get counts(): { readonly reads: number; readonly signals: number; readonly follows: number } {
    return { reads: this.#reads, signals: this.#signals, follows: this.#follows };
  }

  /** Starts a read if one is due and none is running; resolves when it is done. Never rejects. */
  runIfDue(target: UserSignalTarget): Promise<void> {
    if (this.#inFlight !== null) return this.#inFlight;
    if (this.options.clock.now() < this.dueAt) return Promise.resolve();
    const shared = this.options.shared;
    const run = (shared && !shared.reads() ? this.#follow(target, shared) : this.#read(target)).finally(
      () => {
        this.#inFlight = null;
      },
    );
    this.#inFlight = run;
    return run;
  }

  /** Resolves once no read is running. */
  async idle(): Promise<void> {
    await this.#inFlight;
  }

  async #read(target: UserSignalTarget): Promise<void> {
    const { clock, key, api } = this.options;
    const watched = this.#watchedByLowerCase(target);
    let pages = 0;
    const counts: Record<string, readonly [number, number]> = {};
    const looked: { lc: string; moved: boolean }[] = [];
    try {
      let offset = 0;
      for (;;) {
        this.#gate.check(clock.now(), api.budget(key), 'poll', api.pausedUntil(key));
        this.#gate.sent();
        this.#reads += 1;
        pages += 1;
        const page = await this.#user.projectsPage({ limit: PAGE_LIMIT, offset });
        for (const p of page.items) {
          const lower = p.link_caption.toLowerCase();
          counts[lower] = [p.supporter_count, p.current_funding];
          this.#compare(watched, lower, p.supporter_count, p.current_funding, looked);
        }
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.meta.total) break;
      }
      this.#pages = Math.max(1, pages);
      this.#failures = 0;
      if (this.#refused) this.options.logger.info({}, 'the User API key is accepted again');
      this.#refused = false;
      this.#checkMembers(counts);
      const interval = this.#intervalMs();
      this.#dueAt = clock.now() + interval;
      if (this.options.shared) await this.#share({ at: clock.now(), nextAt: this.#dueAt, counts });
      this.#tell(target, looked, interval);
    } catch (error) {
      this.#failed(error);
    }
  }

  /** A follower on replicas: the reader's last shared read, compared like a read of its own. One store read. */
  async #follow(target: UserSignalTarget, shared: UserSignalShare): Promise<void> {
    const read = await latestUserRead(shared.store);
    const now = this.options.clock.now();
    if (read !== undefined && read.at > this.#followedAt) {
      this.#followedAt = read.at;
      this.#follows += 1;
      const watched = this.#watchedByLowerCase(target);
      const looked: { lc: string; moved: boolean }[] = [];
      for (const [lower, [supporters, funding]] of Object.entries(read.counts))
        this.#compare(watched, lower, supporters, funding, looked);
      this.#tell(target, looked, Math.max(1_000, read.nextAt - read.at));
    }
    // A moment after the reader's next read; a reader gone quiet (it died) is looked for every 5 s until this
    // replica takes the lease over and reads itself.
    const next = (read?.nextAt ?? 0) + FOLLOW_LAG_MS;
    this.#dueAt = next > now ? next : now + FOLLOW_RETRY_MS;
  }

  async #share(read: SharedUserRead): Promise<void> {
    await publishUserRead(this.options.shared!.store, read).catch((error: unknown) =>
      this.options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'the User key read could not be shared: the other replicas look again at its next read',
      ),
    );
  }

  #watchedByLowerCase(target: UserSignalTarget): Map<string, string> {
    const watched = new Map<string, string>();
    for (const lc of target.watched()) watched.set(lc.toLowerCase(), lc);
    return watched;
  }

  /** Compares one project's counts with the last seen; the first sight is a baseline (its polling covers before). */
  #compare(
    watched: ReadonlyMap<string, string>,
    lower: string,
    supporters: number,
    funding: number,
    looked: { lc: string; moved: boolean }[],
  ): void {
    const lc = watched.get(lower);
    if (lc === undefined) return;
    const before = this.#seen.get(lower);
    this.#seen.set(lower, { supporters, funding });
    if (before !== undefined)
      looked.push({ lc, moved: before.supporters !== supporters || before.funding !== funding });
  }

  #tell(target: UserSignalTarget, looked: readonly { lc: string; moved: boolean }[], interval: number): void {
    for (const { lc, moved } of looked) {
      if (moved) this.#signals += 1;
      target.looked(lc, interval, moved);
    }
  }

  /** Once, at the first read: configured projects the key's owner does not see are named (issue 30). */
  #checkMembers(counts: Readonly<Record<string, unknown>>): void {
    if (this.#membersChecked) return;
    this.#membersChecked = true;
    const missing = (this.options.members ?? []).filter((lc) => !Object.hasOwn(counts, lc.toLowerCase()));
    if (missing.length === 0) return;
    this.options.logger.warn(
      { projects: missing },
      `the User API key's owner is not a member of ${missing.join(', ')}: /user/me/projects does not list them, so the key's change signal does not speed up their notices (they are polled on their own keys as before). Use a User key of someone in the team of every configured project (account settings → API and integrations), or leave it as it is`,
    );
  }

  /** What is left of the user key's day, spread to its reset, at this many pages a read. */
  #intervalMs(): number {
    const { api, key, clock } = this.options;
    const now = clock.now();
    const plan = planIntervals({
      budget: api.budget(key) ?? assumedUserBudget(now),
      now,
      reserveShare: USER_SIGNAL_RESERVE_SHARE,
      demands: [
        {
          feed: 'user',
          weight: 1,
          targetIntervalMs: this.options.minIntervalMs ?? 1_000,
          requestsPerPoll: this.#pages,
        },
      ],
    });
    return plan.get('user') ?? 60_000;
  }

  #failed(error: unknown): void {
    const { clock, logger, api, key } = this.options;
    const now = clock.now();
    if (error instanceof DeferredError) {
      this.#dueAt = Math.max(error.until, now + 1);
      return;
    }
    this.#failures += 1;
    if (error instanceof RateLimitError) {
      this.#dueAt = Math.max(api.pausedUntil(key), now + 1_000);
      logger.warn({ retryAfterMs: error.retryAfterMs }, 'user key rate limited: obeying Retry-After');
      return;
    }
    if (error instanceof UnauthorizedError || (error instanceof ApiError && error.status === 403)) {
      this.#dueAt = now + backoffMs(recheckBackoff, this.#failures, () => this.options.random.next());
      if (this.#refused) return;
      this.#refused = true;
      logger.error(
        { code: error instanceof ApiError ? error.code : undefined },
        'the User API key was refused (it needs project:read): every project keeps its own polling; create a User key with project:read (account settings → API and integrations) and set FUNDBOT_USER_KEY, or switch it off with api.userKey: false. fundbot tries it again after a few seconds, then every 30-50 s',
      );
      return;
    }
    this.#dueAt = now + backoffMs(failedReadBackoff, this.#failures, () => this.options.random.next());
    logger.warn(
      { failures: this.#failures, err: error instanceof Error ? error.message : String(error) },
      'user key read of /user/me/projects failed: retrying with backoff',
    );
  }
}

/**
 * The one exponential backoff: the transport's retries, the poll loop's failed
 * cycles, a failing feed and the outbox's delivery retries all use it, with
 * their own base and ceiling.
 */
export interface BackoffPolicy {
  /** Wait after the first failure (ms). */
  readonly baseMs: number;
  /** The wait never grows past this (ms). */
  readonly maxMs: number;
  /**
   * `full`: uniform in [0, ceiling) (AWS "full jitter", for many clients racing one server);
   * `spread`: ceiling × [0.75, 1.25) (keeps the pace, only breaks lockstep); `none`: the ceiling.
   */
  readonly jitter: 'full' | 'spread' | 'none';
}

/**
 * The wait before retry number `attempt` (1 = after the first failure):
 * `min(maxMs, baseMs × 2^(attempt-1))`, jittered. `random` returns [0, 1).
 */
export function backoffMs(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const exponent = Math.min(30, Math.max(0, attempt - 1));
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  switch (policy.jitter) {
    case 'full':
      return Math.floor(random() * ceiling);
    case 'spread':
      return Math.round(ceiling * (0.75 + 0.5 * random()));
    case 'none':
      return ceiling;
  }
}

/**
 * The ceiling of every re-check of something that comes back without the platform saying so (a key enabled
 * again, a scope added back to a key, fundbot's access to a channel): 40 s, so with `spread` jitter a return is
 * seen at most 50 s later however long the outage was. The engine's key and scope re-checks
 * (`src/engine/key-pause.ts`) and the channel access watch (`src/delivery/access-watch.ts`) back off to it;
 * each states what it costs while the problem lasts.
 */
export const RECOVERY_RECHECK_MAX_MS = 40_000;

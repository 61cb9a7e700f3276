/**
 * When a channel's doubts spend a look, on a budget of one look per interval (Slack: conversations.history, about
 * one a minute per workspace for apps outside the Marketplace).
 *
 * Without a live witness a Slack post may still land up to its late-landing span (90 s) after its attempt: only a
 * look made after that (plus the clock margin), the doubt's "deciding" look, can prove it absent. An earlier look
 * finds a post that landed at once, but it holds the budget for an interval: made later than one interval before
 * the deciding time, it pushes the deciding look a minute past it, and the doubt past its 120 s bound (seeds 13,
 * 26, 39, 99, 120: 131-161 s). So an early look is made only while the deciding look still fits after it, and
 * only once (a second early look could only read what the first read); else the doubt waits for its deciding
 * time, and its channel reserves that time in the scope's queue (look-queue.ts), so no other channel's early look
 * takes it either.
 */
export type LookTiming =
  /** A look now can decide a doubt either way. */
  | { readonly kind: 'deciding' }
  /** A look now can only find a post that landed; the deciding look still fits one interval later. */
  | { readonly kind: 'early' }
  /** No look now: the next one worth making is the deciding look at `until`. */
  | { readonly kind: 'wait'; readonly until: number };

export function lookTiming(input: {
  readonly now: number;
  /** The budget's interval between two looks. */
  readonly intervalMs: number;
  /** The earliest time a look can prove one of the open doubts absent (its late bound plus the clock margin). */
  readonly decidesFrom: number;
  /** An earlier look read where each open post lands when the platform takes it, and found none of them. */
  readonly receivedRead: boolean;
  /**
   * A sweep of a busy channel is unfinished (look-span.ts): its next page goes on as soon as the budget allows,
   * as a deciding look could not skip it either (it reads the same span, newest first, back to the attempt).
   */
  readonly sweeping: boolean;
  /**
   * Where a stream read must reach (stream-cover.ts), while one is wanted: the early look then waits for it, and
   * may push its own deciding look by up to `pushableMs`, as the stream and its proof may decide without one.
   */
  readonly streamReadFrom?: number;
  readonly pushableMs?: number;
}): LookTiming {
  const { now, intervalMs, decidesFrom, receivedRead, streamReadFrom: stream } = input;
  if (now >= decidesFrom) return { kind: 'deciding' };
  if (stream !== undefined && Math.max(now, stream) + intervalMs <= decidesFrom + (input.pushableMs ?? 0))
    return now < stream ? { kind: 'wait', until: stream } : { kind: 'early' };
  if (input.sweeping || (!receivedRead && now + intervalMs <= decidesFrom)) return { kind: 'early' };
  return { kind: 'wait', until: decidesFrom };
}

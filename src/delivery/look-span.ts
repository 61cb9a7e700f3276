import type { CoveredSpan, LookView } from './look-view.js';

/**
 * How soon a post the platform received is in the channel: a look over the first
 * seconds after its attempt began (plus the clock margin) shows it.
 */
export const landsAtOnceMs = 2_000;

export interface LookSpanInput {
  /** Where the open doubts' posts can begin: the earliest attempt minus the clock margin. */
  readonly earliest: number;
  /** Where they can end: the latest `landsBy` plus the margin, never past now. */
  readonly latest: number;
  /** Where a post the platform received has landed by: the latest attempt, the margin, {@link landsAtOnceMs}. */
  readonly landedBy: number;
  /** What earlier looks read completely after every open doubt had settled. */
  readonly covered: CoveredSpan | undefined;
  readonly continuation: LookView['continuation'];
  /** Messages one page shows, newest first; undefined: a page starts at the span's oldest end. */
  readonly newestFirstPageSize: number | undefined;
  /** How many messages the channel likely holds between two times. */
  readonly expected: (from: number, to: number) => number;
  readonly now: number;
}

/** The span of the next look, the cursor that continues a sweep, and when its first page is (was) read. */
export interface LookSpan {
  readonly from: number;
  readonly to: number;
  readonly cursor?: string;
  readonly readAt: number;
}

/**
 * Where the next look reads: from where earlier looks left off to where the doubts'
 * posts can be. On a platform that shows the newest messages first, a span likely
 * busier than one page would show its oldest part, where a received post landed, only
 * a look later (a minute on Slack): the look then reads that part first, and the rest
 * next. A span one page likely holds is read whole, so a post that never landed is
 * proven absent by one look. A sweep begun over this span continues by its cursor.
 */
export function nextLookSpan(input: LookSpanInput): LookSpan {
  const { earliest, latest, landedBy, covered, continuation, newestFirstPageSize: pageSize } = input;
  const from =
    covered && covered.from <= earliest && covered.to > earliest ? Math.min(covered.to, latest) : earliest;
  const oldestPartFirst =
    pageSize !== undefined && from < landedBy && landedBy < latest && input.expected(from, latest) > pageSize;
  const to = oldestPartFirst ? landedBy : latest;
  if (continuation && continuation.from <= from && continuation.to >= to) {
    const { cursor } = continuation;
    return {
      from: continuation.from,
      to: continuation.to,
      cursor,
      readAt: continuation.readAt ?? continuation.to,
    };
  }
  return { from, to, readAt: input.now };
}

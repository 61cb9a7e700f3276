import { z } from 'zod';

/**
 * A span of a channel read completely, and when its first part was read: a post that
 * could still land after `readAt` may be in it unseen, so the span proves nothing
 * about a doubt that had not settled by then.
 */
export interface CoveredSpan {
  readonly from: number;
  readonly to: number;
  /** Absent in views stored before it was kept: the span's end, which no read preceded. */
  readonly readAt?: number;
}

/**
 * What the looks at one channel (or thread) have shown, shared by every replica in
 * the store (`delivery/look/<channel>[/<thread>]`, under 10 KB), so a replica that
 * takes a project over continues the previous holder's doubt instead of starting over.
 */
export interface LookView {
  /** The span looked at completely (epoch ms), over one sweep or touching sweeps. */
  readonly covered?: CoveredSpan;
  /** Idempotency keys seen in the channel, with their message ids (the newest {@link foundKept}). */
  readonly found: Readonly<Record<string, string>>;
  /** An unfinished sweep: the call that continues it, and when its first page was read. */
  readonly continuation?: {
    readonly cursor: string;
    readonly from: number;
    readonly to: number;
    readonly readAt?: number;
  };
  /** Epoch ms of the last look (for the next allowed one). */
  readonly lookedAt?: number;
  /** The channel's pace as the last sweep's first page showed it: every voice, not only ours. */
  readonly pace?: { readonly messages: number; readonly spanMs: number; readonly at: number };
}

export const lookViewSchema = z.object({
  covered: z.object({ from: z.number(), to: z.number(), readAt: z.number().optional() }).optional(),
  found: z.record(z.string(), z.string()),
  continuation: z
    .object({ cursor: z.string(), from: z.number(), to: z.number(), readAt: z.number().optional() })
    .optional(),
  lookedAt: z.number().optional(),
  pace: z.object({ messages: z.number(), spanMs: z.number(), at: z.number() }).optional(),
}) as unknown as z.ZodType<LookView>;

const foundKept = 200;

/** When the span's first part was read (see {@link CoveredSpan.readAt}). */
export const readAtOf = (span: CoveredSpan): number => span.readAt ?? span.to;

/**
 * The span two reads cover together: their union when they touch (each was read
 * completely, so together they leave no gap), as old as the older read; else the newer
 * read alone.
 */
export function joinCovered(earlier: CoveredSpan | undefined, newer: CoveredSpan): CoveredSpan {
  if (!earlier || earlier.from > newer.to || newer.from > earlier.to) return newer;
  return {
    from: Math.min(earlier.from, newer.from),
    to: Math.max(earlier.to, newer.to),
    readAt: Math.min(readAtOf(earlier), readAtOf(newer)),
  };
}

/**
 * The part of a span read at `readAt` that no later landing can reach (a post lands with the time it lands at,
 * on a clock at most `margin` off ours): it holds for doubts that had not settled when it was read.
 */
export function finalPart(span: CoveredSpan | undefined, margin: number): CoveredSpan | undefined {
  if (!span) return undefined;
  const to = Math.min(span.to, readAtOf(span) - margin);
  // Final: no read time limits it (joinCovered keeps the newer read's).
  return to > span.from ? { from: span.from, to, readAt: Number.POSITIVE_INFINITY } : undefined;
}

/** The keys seen so far and on this page, the newest {@link foundKept} kept. */
export function withFound(
  found: Readonly<Record<string, string>>,
  page: ReadonlyMap<string, string>,
): Readonly<Record<string, string>> {
  const all = { ...found, ...Object.fromEntries(page) };
  const keys = Object.keys(all);
  if (keys.length <= foundKept) return all;
  return Object.fromEntries(keys.slice(-foundKept).map((k) => [k, all[k] as string]));
}

import { z } from 'zod';
import { type ChannelRef, channelKey, type NeutralMessage } from '../core/index.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import { landsAtOnceMs, nextLookSpan } from './look-span.js';
import { joinCovered, type LookView, lookViewSchema, readAtOf, withFound } from './look-view.js';
import { OwnPosts } from './own-posts.js';
import type { ChannelPoster, DoubtSupport, ThreadTarget } from './ports.js';

/** A delivery in doubt: its idempotency key, when its attempt began, and what it carried. */
export interface Doubt {
  readonly key: string;
  readonly startedAt: number;
  /**
   * The latest it can have landed, when known: the platform answered (a 5xx) at a known
   * time, so nothing lands after it. Unknown (no answer, or a restart): the attempt's
   * start plus the poster's settle time.
   */
  readonly landsBy?: number;
  readonly message: NeutralMessage;
}

export type DoubtDecision =
  /** It landed: the message id is recorded, nothing is posted again. */
  | { readonly kind: 'posted'; readonly messageId: string | undefined }
  /** Certainly not there, or a repeat cannot duplicate it: post it (again). */
  | { readonly kind: 'absent' }
  /** Cannot tell yet (it may still land, or no look is allowed before `until`). */
  | { readonly kind: 'wait'; readonly until: number };

/** A view is kept a day: longer than any doubt lasts. */
const viewTtlMs = 24 * 3_600_000;
/** A pace a look measured is trusted this long: a campaign's pace changes over its day. */
const paceTrustMs = 30 * 60_000;

export interface DoubtResolverOptions {
  readonly store: KeyValueStore;
  /** The look budgets are claims (`look:<scope>`, held for the scope's interval): one look per interval in the fleet. */
  readonly claims: Claims;
  readonly clock: Clock;
  /**
   * Our clock and the platform's may differ: a look reaches this much before the attempt
   * and past where it could land, when the poster has no measure of its own. Default 60 s.
   */
  readonly clockMarginMs?: number;
  /**
   * How long a doubt that could be looked for waits for others that are about to settle,
   * so one look covers a burst of failures (a 500 storm fails one post a second; the
   * budget allows one look a minute). Default 10 s.
   */
  readonly gatherMs?: number;
  /**
   * How many replicas post into the channels (the live ones, from the lease balancer; 1
   * alone). Before a look has measured a channel's pace, this process's own posts times
   * this is its guess: projects are spread evenly, so the others post about as much.
   */
  readonly postingReplicas?: () => number;
}

/** Looks are spaced this much beyond the platform's interval: its clock counts the arrival, ours the departure. */
const lookSpacingMarginMs = 1_000;
/**
 * The doubts one look covers: those that began within this span of the oldest open one. A busy
 * channel shows 15 messages per look (Slack's page for apps outside the Marketplace), so a look over
 * every doubt of the last minutes would need a page a minute for each part; one burst at a time, the
 * oldest first, needs one or two.
 */
const lookSpanMs = 20_000;

/**
 * Decides deliveries left in doubt (a timeout, a reset connection, a 5xx, a crash
 * after the attempt was recorded), never by posting blind:
 * 1. before `settleMs` after the attempt began nothing is decided: it may still land;
 * 2. inside the platform's dedupe window (`repeatSafeMs`, Discord's nonce) a repeat
 *    is the check: 'absent' means "post it again with the same key";
 * 3. otherwise the channel is looked at: one platform call covers the doubts of the
 *    channel's oldest burst, from the earliest attempt (minus a clock margin) to where
 *    the posts can be, and what it showed (keys found, the span covered, the pace) is
 *    stored for the others and for the next holder. In a channel busier than one page
 *    (look-span.ts) the first look reads where a received post lands, the rest after.
 *    Looks spend a budget shared by every replica (a claim per scope held for its
 *    interval: Slack's conversations.history, about one a minute per workspace).
 *
 * Cost: no request while nothing is in doubt; per decision one or two store reads (the
 * channel's view, the scope's last look); per look one platform call, one claim and two
 * small writes (the view, and the scope's last look, timed from its answer).
 */
export function createDoubtResolver(options: DoubtResolverOptions) {
  const { store, claims, clock } = options;
  const ownPosts = new OwnPosts();
  const viewKey = (channel: ChannelRef, thread: ThreadTarget | undefined) =>
    `delivery/look/${channelKey(channel)}${thread ? `/${encodeURIComponent(thread.parentMessageId)}` : ''}`;
  /** How far our clock and the platform's may disagree: the poster's measure, else the resolver's default. */
  const marginOf = (support: DoubtSupport) => support.clockMarginMs ?? options.clockMarginMs ?? 60_000;
  const landsBy = (support: DoubtSupport, doubt: Doubt) =>
    doubt.landsBy ?? doubt.startedAt + support.settleMs;
  /** When a look can tell: even the platform's clock is past where the post can be (a look shows only what exists). */
  const settlesAt = (support: DoubtSupport, doubt: Doubt) => landsBy(support, doubt) + marginOf(support);

  function fromView(view: LookView, doubt: Doubt, support: DoubtSupport): DoubtDecision | undefined {
    const messageId = view.found[doubt.key];
    if (messageId !== undefined) return { kind: 'posted', messageId };
    const c = view.covered;
    const margin = marginOf(support);
    if (
      c &&
      c.from <= doubt.startedAt - margin &&
      c.to >= landsBy(support, doubt) + margin &&
      readAtOf(c) >= settlesAt(support, doubt)
    )
      return { kind: 'absent' };
    return undefined;
  }

  /** Messages the channel likely holds in a span: as a look measured it lately, else our own posts times the replicas. */
  function expectedMessages(key: string, view: LookView, from: number, to: number): number {
    const seen = ownPosts.between(key, from, to) * (options.postingReplicas?.() ?? 1);
    const pace = view.pace;
    if (!pace || clock.now() - pace.at > paceTrustMs) return seen;
    return Math.max(seen, (pace.messages / Math.max(1, pace.spanMs)) * (to - from));
  }

  async function look(
    support: DoubtSupport,
    channel: ChannelRef,
    thread: ThreadTarget | undefined,
    view: LookView,
    open: readonly Doubt[],
  ): Promise<LookView> {
    const now = clock.now();
    const margin = marginOf(support);
    const key = viewKey(channel, thread);
    // A span read before one of these settled may miss its post: it is read again.
    const trusted =
      view.covered && readAtOf(view.covered) >= Math.max(...open.map((d) => settlesAt(support, d)))
        ? view.covered
        : undefined;
    // Only the span where these posts can be: a busy channel's look then needs one page, not five.
    const span = nextLookSpan({
      earliest: Math.min(...open.map((d) => d.startedAt)) - margin,
      latest: Math.min(now, Math.max(...open.map((d) => landsBy(support, d))) + margin),
      landedBy: Math.max(...open.map((d) => d.startedAt)) + margin + landsAtOnceMs,
      covered: trusted,
      continuation: view.continuation,
      newestFirstPageSize: support.newestFirstPageSize,
      expected: (from, to) => expectedMessages(key, view, from, to),
      now,
    });
    const page = await support.look(
      channel,
      {
        from: span.from,
        to: span.to,
        ...(span.cursor ? { cursor: span.cursor } : {}),
        wanted: open.map((d) => ({ key: d.key, message: d.message })),
      },
      thread,
    );
    // A continued sweep extends its own earlier pages; a new one, what was read after these settled.
    const covered = joinCovered(span.cursor ? view.covered : trusted, {
      ...page.covered,
      readAt: span.readAt,
    });
    const measured =
      page.shown !== undefined && !span.cursor
        ? { messages: page.shown, spanMs: page.covered.to - page.covered.from, at: now }
        : view.pace;
    return {
      covered,
      found: withFound(view.found, page.found),
      ...(page.cursor
        ? { continuation: { cursor: page.cursor, from: span.from, to: span.to, readAt: span.readAt } }
        : {}),
      lookedAt: now,
      ...(measured ? { pace: measured } : {}),
    };
  }

  return {
    /** One of our posts landed in the channel (or thread): its pace, as far as this process sees it. */
    notePosted(channel: ChannelRef, thread: ThreadTarget | undefined): void {
      ownPosts.noted(viewKey(channel, thread), clock.now());
    },

    /**
     * Decides each doubt of one channel (or thread) posted through `poster`. At most
     * one look, and only when some doubt has settled and the budget allows.
     */
    async decide(
      poster: ChannelPoster,
      channel: ChannelRef,
      thread: ThreadTarget | undefined,
      doubts: readonly Doubt[],
    ): Promise<Map<string, DoubtDecision>> {
      const decisions = new Map<string, DoubtDecision>();
      const support = poster.doubt;
      const now = clock.now();
      // A poster that cannot look declares a repeat harmless (the console).
      if (!support) {
        for (const d of doubts) decisions.set(d.key, { kind: 'absent' });
        return decisions;
      }
      const settled: Doubt[] = [];
      const settles = (d: Doubt) => settlesAt(support, d);
      for (const d of doubts) {
        // Nothing is decided while the post may still land; inside the dedupe window a repeat is the check.
        const lands = landsBy(support, d);
        if (now < lands) {
          decisions.set(d.key, { kind: 'wait', until: lands });
        } else if (now - d.startedAt < support.repeatSafeMs) {
          decisions.set(d.key, { kind: 'absent' });
        } else if (now < settles(d)) {
          decisions.set(d.key, { kind: 'wait', until: settles(d) });
        } else {
          settled.push(d);
        }
      }
      if (settled.length === 0) return decisions;
      // A burst: wait (at most gatherMs past the first) for the doubts about to settle, then one look covers them.
      const gatherUntil = Math.min(...settled.map(settles)) + (options.gatherMs ?? 10_000);
      const soon = doubts.filter((d) => now < settles(d) && settles(d) <= gatherUntil);
      if (soon.length > 0 && now < gatherUntil) {
        const until = Math.max(...soon.map(settles));
        for (const d of settled) decisions.set(d.key, { kind: 'wait', until });
        return decisions;
      }
      const key = viewKey(channel, thread);
      let view: LookView = (await store.get(key, lookViewSchema)) ?? { found: {} };
      let open = settled.filter((d) => !decideInto(decisions, d, fromView(view, d, support)));
      if (open.length === 0) return decisions;
      const budget = support.lookBudget(channel, thread);
      const interval = budget.intervalMs + lookSpacingMarginMs;
      // When the scope was last looked at, by any replica or an earlier process (claims live in memory or Redis).
      const budgetKey = `delivery/look-budget/${encodeURIComponent(budget.scope)}`;
      const claimKey = `look:${budget.scope}`;
      let lastLook = await store.get(budgetKey, z.number());
      const spent = lastLook !== undefined && now < lastLook + interval;
      // The claim keeps every other caller (replica, or this process on SQLite) from looking meanwhile; a
      // process that dies mid-look and restarts may look once too early: Slack's 429 then says how long to wait.
      if (!spent && (await claims.claimOnce(claimKey, interval))) {
        lastLook = now;
        // The oldest burst first: its span fits a page or two even in a busy channel.
        const oldest = Math.min(...open.map((d) => d.startedAt));
        const burst = open.filter((d) => d.startedAt <= oldest + lookSpanMs);
        try {
          view = await look(support, channel, thread, view, burst);
        } catch (error) {
          // The platform refused the look (its rate limit): the budget is what it says, not a whole interval.
          const retryAfterMs = error instanceof DeliveryNotPostedError ? error.retryAfterMs : undefined;
          if (retryAfterMs !== undefined) {
            await claims.giveBack(claimKey).catch(() => {});
            await store.set(budgetKey, now + retryAfterMs - interval, interval * 2).catch(() => {});
          }
          throw error;
        }
        // The platform counts from when the call reached it, which may be well after `now` (a poster's
        // first look asks who it is first; a slow answer): timed from the answer, the next is never early.
        lastLook = clock.now();
        await store.set(budgetKey, lastLook, interval * 2);
        await store.set(key, view, viewTtlMs);
        open = open.filter((d) => !decideInto(decisions, d, fromView(view, d, support)));
      }
      // Undecided: the next look the scope's budget allows (an unfinished sweep continues then).
      const next = Math.max((lastLook ?? now) + interval, now + 1_000);
      for (const d of open) decisions.set(d.key, { kind: 'wait', until: next });
      return decisions;
    },
  };
}

function decideInto(
  decisions: Map<string, DoubtDecision>,
  doubt: Doubt,
  decision: DoubtDecision | undefined,
): boolean {
  if (!decision) return false;
  decisions.set(doubt.key, decision);
  return true;
}

export type DoubtResolver = ReturnType<typeof createDoubtResolver>;

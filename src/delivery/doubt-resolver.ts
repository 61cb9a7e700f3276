import { type ChannelRef, channelKey } from '../domain/channels.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import { type CopyLook, type CopyWatchLook, lookForCopies } from './copy-looks.js';
import { type Doubt, type DoubtDecision, decideInto } from './doubt.js';
import { claimRetryMs, createLookBudgets } from './look-budget.js';
import { createLookQueue } from './look-queue.js';
import { landsAtOnceMs, nextLookSpan } from './look-span.js';
import { lookTiming } from './look-timing.js';
import { finalPart, joinCovered, type LookView, readAtOf, withFound } from './look-view.js';
import { createLookViews } from './look-view-store.js';
import { OwnPosts } from './own-posts.js';
import type { ChannelPoster, DoubtSupport, ThreadTarget } from './ports.js';
import { streamCover } from './stream-cover.js';
import { createWitness, type Witness } from './witness.js';

/**
 * With the workspace's events flowing, a settled doubt waits this long for them to pass its time before it
 * spends a look (one a minute on Slack): the silence decides it for free whenever later posts are sighted.
 */
const silenceGraceMs = 10_000;
/**
 * A stream read (stream-cover.ts) may push a deciding look back this far: 100 s after the attempt plus this stays
 * within the 120 s bound with time for the repost.
 */
const streamPushMs = 10_000;
/** Looks at most this far apart find a late copy within seconds: no need to wait for it before a repeat. */
const quickLookIntervalMs = 10_000;
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
  /**
   * The platform's events for our own messages (witness.ts): presence at once, absence by their silence.
   * Default: one that sees nothing (looks alone decide).
   */
  readonly witness?: Witness;
}

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
 * 0. the platform's own witness first (witness.ts): a sighting of the post decides it
 *    landed, at once and without a look; while the workspace's events flow, their
 *    silence past where the post would have landed decides it did not (a copy landing
 *    later still is removed when it is sighted), and a look waits `silenceGraceMs` for it;
 * 1. before `settleMs` after the attempt began nothing is decided: it may still land;
 * 2. inside the platform's dedupe window (`repeatSafeMs`, Discord's nonce) a repeat
 *    is the check: 'absent' means "post it again with the same key";
 * 3. otherwise the channel is looked at: one platform call covers the doubts of the
 *    channel's oldest burst, from the earliest attempt (minus a clock margin) to where
 *    the posts can be, and what it showed (keys found, the span covered, the pace) is
 *    stored for the others and for the next holder. In a channel busier than one page
 *    (look-span.ts) the first look reads where a received post lands, the rest after.
 *    Looks spend a budget shared by every replica (a claim per scope held for its
 *    interval: Slack's conversations.history, about one a minute per workspace), the
 *    channel with the oldest open doubt first (look-queue.ts). Without a live witness,
 *    'absent' waits until a look has covered the poster's `lateLandingMs` after the
 *    attempt (a post landing that late is found, not posted twice); an early look before
 *    then finds a post that landed at once, and is made only while that deciding look
 *    still fits an interval after it (look-timing.ts; the channel reserves its deciding
 *    time in the scope's queue, so another channel's early look does not take it).
 *
 * Cost: no request while nothing is in doubt; per decision a store read per doubt (its
 * stored sightings) and one or two more (the channel's view, the scope's last look); per
 * look one platform call, one claim, the scope's queue read (written when it changes)
 * and two small writes (the view, and the scope's last look, timed from its answer).
 */
export function createDoubtResolver(options: DoubtResolverOptions) {
  const { store, claims, clock } = options;
  const witness = options.witness ?? createWitness({ store, clock });
  const ownPosts = new OwnPosts();
  const queue = createLookQueue({ store, clock });
  const budgets = createLookBudgets({ store, claims, clock });
  const views = createLookViews(store);
  /** Budget scopes this process is looking in now (their claim is ours). */
  const lookingIn = new Set<string>();
  const viewKey = (channel: ChannelRef, thread: ThreadTarget | undefined) =>
    `delivery/look/${channelKey(channel)}${thread ? `/${encodeURIComponent(thread.parentMessageId)}` : ''}`;
  /** How far our clock and the platform's may disagree: the poster's measure, else the resolver's default. */
  const marginOf = (support: DoubtSupport) => support.clockMarginMs ?? options.clockMarginMs ?? 60_000;
  const landsBy = (support: DoubtSupport, doubt: Doubt) =>
    doubt.landsBy ?? doubt.startedAt + support.settleMs;
  /** When a look can tell: even the platform's clock is past where the post can be (a look shows only what exists). */
  const settlesAt = (support: DoubtSupport, doubt: Doubt) => landsBy(support, doubt) + marginOf(support);
  /**
   * Until when a post may still land, as far as 'absent' waits: where it lands normally while a late copy
   * would be found within seconds (a live witness, or looks every few seconds: Discord), else the poster's
   * late-landing span (Slack without message events). Never past the platform's answer (a 5xx).
   */
  const lateBoundOf = (support: DoubtSupport, watched: boolean) => (doubt: Doubt) =>
    doubt.landsBy ??
    (watched
      ? landsBy(support, doubt)
      : Math.max(landsBy(support, doubt), doubt.startedAt + (support.lateLandingMs ?? 0)));

  function fromView(
    view: LookView,
    doubt: Doubt,
    support: DoubtSupport,
    lateBy: (d: Doubt) => number,
  ): DoubtDecision | undefined {
    const messageId = view.found[doubt.key];
    if (messageId !== undefined) return { kind: 'posted', messageId, by: 'look' };
    const c = view.covered;
    const margin = marginOf(support);
    const bound = lateBy(doubt) + margin;
    if (c && c.from <= doubt.startedAt - margin && c.to >= bound && readAtOf(c) >= bound)
      return { kind: 'absent', by: 'look' };
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
    lateBy: (d: Doubt) => number,
  ): Promise<LookView> {
    const now = clock.now();
    const margin = marginOf(support);
    const key = viewKey(channel, thread);
    // A span read before these could all have landed holds for its part no later landing can reach (a post
    // lands with the time it lands at); the rest is read again.
    const trusted =
      view.covered && readAtOf(view.covered) >= Math.max(...open.map((d) => lateBy(d) + margin))
        ? view.covered
        : finalPart(view.covered, margin);
    // Only the span where these posts can be: a busy channel's look then needs one page, not five.
    const span = nextLookSpan({
      earliest: Math.min(...open.map((d) => d.startedAt)) - margin,
      latest: Math.min(now, Math.max(...open.map(lateBy)) + margin),
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
        wanted: open.flatMap((d) =>
          [d.message, ...(d.alsoAs ?? [])].map((message) => ({ key: d.key, message })),
        ),
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
      // A late copy is found within seconds by the platform's events, or by looks as frequent as Discord's.
      const quickLooks = support.lookBudget(channel, thread).intervalMs <= quickLookIntervalMs;
      const silenceFirst = witness.live(channel) && !quickLooks;
      const margin = marginOf(support);
      const alone = (options.postingReplicas?.() ?? 1) <= 1;
      const cover = streamCover({ witness, channel, marginMs: margin, alone });
      /** A doubt's late bound as a view stands: watched (stream-cover.ts) or not. */
      const lateIn = (v: LookView) => (d: Doubt) =>
        lateBoundOf(support, quickLooks || cover.watched(d, v))(d);
      const passed = witness.passed(channel);
      const settled: Doubt[] = [];
      const settles = (d: Doubt) => settlesAt(support, d);
      for (const d of doubts) {
        // The platform's events saw it land: decided, no look. Their silence while they flow: it did not.
        const sighted = await sightingsOf(d);
        if (sighted.length > 0) {
          decisions.set(d.key, {
            kind: 'posted',
            messageId: sighted[0],
            others: sighted.slice(1),
            by: 'sighting',
          });
        } else if (
          passed !== undefined &&
          passed >= landsBy(support, d) + margin &&
          witness.coveredSince(channel, d.startedAt)
        ) {
          decisions.set(d.key, { kind: 'absent', by: 'silence' });
        } else if (now < landsBy(support, d)) {
          // Nothing is decided while the post may still land; inside the dedupe window a repeat is the check.
          decisions.set(d.key, { kind: 'wait', until: landsBy(support, d) });
        } else if (now - Math.min(d.startedAt, d.firstStartedAt ?? d.startedAt) < support.repeatSafeMs) {
          decisions.set(d.key, { kind: 'absent', by: 'repeat' });
        } else if (now < settles(d)) {
          decisions.set(d.key, { kind: 'wait', until: settles(d) });
        } else if (silenceFirst && now < settles(d) + silenceGraceMs) {
          // The workspace's events flow: their silence (a later post's event) is likely to decide it soon, and
          // costs nothing; the scarce look waits a little for it.
          decisions.set(d.key, { kind: 'wait', until: settles(d) + silenceGraceMs });
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
      let view: LookView = (await views.read(key)) ?? { found: {} };
      let open = settled.filter((d) => !decideInto(decisions, d, fromView(view, d, support, lateIn(view))));
      const budget = support.lookBudget(channel, thread);
      if (open.length === 0) {
        await queue.leave(budget.scope, key).catch(() => {});
        return decisions;
      }
      const interval = budgets.intervalOf(budget);
      const staleMs = interval * 2 + 5_000;
      const oldest = Math.min(...open.map((d) => d.startedAt));
      // Early looks only where the deciding one still fits after them (look-timing.ts).
      const want = { oldest, due: Math.min(...open.map((d) => lateIn(view)(d) + margin)) };
      const received = receivedIn(view, support);
      const streamReadFrom = cover.readFrom(open, view);
      const timing = lookTiming({
        now,
        intervalMs: interval,
        decidesFrom: want.due,
        receivedRead: open.every(received),
        sweeping: view.continuation !== undefined,
        ...(streamReadFrom === undefined ? {} : { streamReadFrom, pushableMs: streamPushMs }),
      });
      // Read past the stream's start, its proof may decide the channel: its deciding look goes, for an interval
      // at most, to another channel that needs one (whose repost is often that proof); it steps out of line.
      if (
        timing.kind === 'deciding' &&
        now < want.due + interval &&
        cover.read(open, view) &&
        (await queue.othersDue(budget.scope, key, now + interval, staleMs))
      ) {
        await queue.leave(budget.scope, key).catch(() => {});
        for (const d of open) decisions.set(d.key, { kind: 'wait', until: now + interval });
        return decisions;
      }
      if (timing.kind === 'wait') {
        await queue.reserve(budget.scope, key, want, staleMs);
        for (const d of open) decisions.set(d.key, { kind: 'wait', until: timing.until });
        return decisions;
      }
      let lastLook = await budgets.lastLook(budget);
      const spent = lastLook !== undefined && now < lastLook + interval;
      // The oldest doubt of the scope's channels first, whichever replica holds it.
      const pushable = timing.kind === 'early' && streamReadFrom !== undefined ? streamPushMs : 0;
      const turn = await queue.mayLook(budget.scope, key, want, interval, staleMs, !spent, pushable);
      // The oldest burst first: its span fits a page or two even in a busy channel.
      const burst = open.filter((d) => d.startedAt <= oldest + lookSpanMs);
      const claimedHere = lookingIn.has(budget.scope);
      const looked = turn.now
        ? await budgets.spend(budget, lastLook, async () => {
            lookingIn.add(budget.scope);
            try {
              return await look(support, channel, thread, view, burst, lateIn(view));
            } finally {
              lookingIn.delete(budget.scope);
            }
          })
        : undefined;
      if (looked) {
        lastLook = looked.lookedAt;
        view = looked.result;
        await views.keep(key, view);
        open = open.filter((d) => !decideInto(decisions, d, fromView(view, d, support, lateIn(view))));
        if (open.length === 0) await queue.leave(budget.scope, key).catch(() => {});
      }
      // Undecided: the next look the scope's budget allows (an unfinished sweep continues then); once a look
      // read where it lands when received and found nothing, not before a look can prove it absent.
      const readWhereLands = receivedIn(view, support);
      // Another process holds the claim (claimRetryMs); one held by this process's own look in flight is waited out
      // by the interval: asking again sooner only put the channel in line ahead of the one looking (seed 196).
      const claimedElsewhere = turn.now && !looked && !claimedHere && !lookingIn.has(budget.scope);
      for (const d of open) {
        const next = claimedElsewhere
          ? now + claimRetryMs
          : Math.max((lastLook ?? now) + interval, now + 1_000, turn.notBefore);
        decisions.set(d.key, {
          kind: 'wait',
          until: Math.max(next, readWhereLands(d) ? lateIn(view)(d) + margin : 0),
        });
      }
      return decisions;
    },
    /** One look for copies of a delivery posted again after a doubt: see copy-looks.ts. */
    lookForCopies: (
      poster: ChannelPoster,
      channel: ChannelRef,
      thread: ThreadTarget | undefined,
      watch: CopyWatchLook,
    ): Promise<CopyLook> =>
      lookForCopies({ budgets, queue, clock, marginOf }, poster, channel, thread, watch),
  };

  /** Whether the view's finished looks read where the doubt's post lands when the platform takes it. */
  function receivedIn(view: LookView, support: DoubtSupport): (d: Doubt) => boolean {
    const c = view.continuation ? undefined : view.covered;
    const margin = marginOf(support);
    return (d) =>
      c !== undefined &&
      c.from <= d.startedAt - margin &&
      Math.min(c.to, readAtOf(c)) >= landsBy(support, d) + margin;
  }

  /** The delivery's sightings: this process's, else those another replica stored while it was in doubt. */
  async function sightingsOf(doubt: Doubt): Promise<readonly string[]> {
    const seen = witness.seen(doubt.key, doubt.mark);
    if (seen.length > 0) return seen;
    return witness.stored(doubt.key).catch(() => []);
  }
}

export type { DecidedBy, Doubt, DoubtDecision } from './doubt.js';
export type DoubtResolver = ReturnType<typeof createDoubtResolver>;

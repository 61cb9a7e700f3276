import { describe, expect, it } from 'vitest';
import {
  answerAwaitedMs,
  namesSupporter,
  type TraceEntry,
  traceEntryOf,
  traceNamesKept,
  traceStateOf,
} from '../../src/domain/notice-trace.js';
import { limits } from '../../src/domain/text-limits.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';

const entry = (o: Partial<TraceEntry> = {}): TraceEntry => ({
  ...traceEntryOf(buildEvent.supporter({ displayName: 'Grace H.' }), t0),
  ...o,
});

describe('delivery trace: what an entry keeps of an event', () => {
  it('keeps the public names and titles only: never a wall message or a blog teaser', () => {
    const wall = traceEntryOf(buildEvent.wallPost({ author: 'Ada L.', message: 'secret plans' }), t0);
    expect(wall).toMatchObject({ kind: 'wall', type: 'wall-post', names: ['Ada L.'], count: 1 });
    expect(JSON.stringify(wall)).not.toContain('secret plans');
    const blog = traceEntryOf(
      buildEvent.blogPost({ title: 'Behind the scenes', teaser: 'only for backers' }),
      t0,
    );
    expect(blog).toMatchObject({ kind: 'blog', subject: 'Behind the scenes', names: [] });
    expect(JSON.stringify(blog)).not.toContain('only for backers');
  });

  it('bounds every name and keeps at most ten names of a burst, with its count', () => {
    const long = 'N'.repeat(500);
    expect(
      traceEntryOf(buildEvent.supporter({ displayName: long }), t0).names[0]!.length,
    ).toBeLessThanOrEqual(limits.name);
    const names = Array.from({ length: 40 }, (_, i) => `Fan ${i}`);
    const burst = traceEntryOf(buildEvent.supporterBurst({ displayNames: names, count: 40 }), t0);
    expect(burst.names).toHaveLength(traceNamesKept);
    expect(burst.count).toBe(40);
  });

  it('keeps when it happened, when fundbot saw it and when it was placed', () => {
    const e = traceEntryOf(buildEvent.supporter({ occurredAt: t0 - 60_000, detectedAt: t0 - 1_000 }), t0);
    expect(e).toMatchObject({ occurredAt: t0 - 60_000, seenAt: t0 - 1_000, placedAt: t0 });
  });
});

describe('delivery trace: the state of a notice', () => {
  it('an attempt awaits its answer until its post failed without proof or the answer is overdue; then it is in doubt', () => {
    const attempting = { state: 'attempting' as const, at: t0, attemptStartedAt: t0 };
    const at = (now: number, o: Partial<TraceEntry> = {}) =>
      traceStateOf(entry(o), attempting, undefined, undefined, now);
    expect(at(t0 + 5_000)).toEqual({ state: 'awaiting-answer', since: t0 });
    // The post timed out (the pipeline marked the doubt): in doubt at once.
    expect(at(t0 + 10_000, { doubtSince: t0 + 10_000 })).toEqual({ state: 'in-doubt', since: t0 });
    // A doubt of an earlier attempt does not make this one (a repeat) doubtful before its answer is overdue.
    expect(at(t0 + 5_000, { doubtSince: t0 - 90_000 })).toEqual({ state: 'awaiting-answer', since: t0 });
    // No answer and no failure seen for a minute: its process died waiting, it is in doubt.
    expect(at(t0 + answerAwaitedMs)).toEqual({ state: 'in-doubt', since: t0 });
  });

  it('a rule of the channel first: filtered, or the digest', () => {
    expect(traceStateOf(entry({ skipped: 'filtered' }), undefined, undefined, undefined)).toEqual({
      state: 'filtered',
    });
    expect(traceStateOf(entry({ skipped: 'digest' }), undefined, undefined, undefined)).toEqual({
      state: 'digest',
    });
  });

  it('posted (with its message), in doubt since its attempt, retrying since its first failure, given up', () => {
    expect(
      traceStateOf(entry(), { state: 'posted', at: t0, messageId: '17.2' }, undefined, undefined),
    ).toEqual({
      state: 'posted',
      at: t0,
      messageId: '17.2',
      inBatch: false,
    });
    expect(
      traceStateOf(entry(), { state: 'attempting', at: t0 + 5, attemptStartedAt: t0 }, undefined, undefined),
    ).toEqual({ state: 'in-doubt', since: t0 });
    expect(
      traceStateOf(entry(), { state: 'failing', at: t0 + 9, failingSince: t0 }, undefined, undefined),
    ).toEqual({
      state: 'retrying',
      since: t0,
    });
    expect(traceStateOf(entry(), { state: 'abandoned', at: t0 }, undefined, undefined)).toEqual({
      state: 'given-up',
      at: t0,
    });
  });

  it('held: until its batch is due (pacing, quiet hours), then posted with the batch message', () => {
    const held = { state: 'held' as const, at: t0 };
    expect(traceStateOf(entry(), held, { reason: 'paced', since: t0, due: t0 + 600_000 }, undefined)).toEqual(
      {
        state: 'held',
        reason: 'paced',
        until: t0 + 600_000,
      },
    );
    expect(
      traceStateOf(entry(), held, { reason: 'quiet-hours', since: t0, due: t0 + 9 }, undefined),
    ).toMatchObject({
      reason: 'quiet-hours',
    });
    expect(
      traceStateOf(
        entry(),
        held,
        { reason: 'paced', since: t0, due: t0 + 1, posted: { at: t0 + 2, messageId: 'm9' } },
        undefined,
      ),
    ).toEqual({ state: 'posted', at: t0 + 2, messageId: 'm9', inBatch: true });
  });

  it('cannot post: a catch-up batch since the first refusal, or a channel refusing with no record yet', () => {
    const held = { state: 'held' as const, at: t0 + 50 };
    expect(traceStateOf(entry(), held, { reason: 'no-access', since: t0, due: null }, undefined)).toEqual({
      state: 'cannot-post',
      since: t0,
    });
    expect(traceStateOf(entry(), { state: 'failing', at: t0 + 9 }, undefined, t0 - 1)).toEqual({
      state: 'cannot-post',
      since: t0 - 1,
    });
    expect(traceStateOf(entry(), undefined, undefined, t0 - 1)).toEqual({
      state: 'cannot-post',
      since: t0 - 1,
    });
    expect(traceStateOf(entry(), undefined, undefined, undefined)).toEqual({ state: 'queued' });
  });
});

describe('delivery trace: /why finds a supporter by name', () => {
  it('exactly, ignoring case, spacing and compatibility forms; never a substring, never a wall author', () => {
    expect(namesSupporter(entry(), 'grace  h.')).toBe(true);
    expect(namesSupporter(entry(), 'ＧＲＡＣＥ Ｈ.')).toBe(true);
    expect(namesSupporter(entry(), 'Grace')).toBe(false);
    expect(namesSupporter(entry(), '  ')).toBe(false);
    const wall = traceEntryOf(buildEvent.wallPost({ author: 'Grace H.' }), t0);
    expect(namesSupporter(wall, 'Grace H.')).toBe(false);
    const burst = traceEntryOf(buildEvent.supporterBurst({ displayNames: ['Ada', 'Bob'] }), t0);
    expect(namesSupporter(burst, 'bob')).toBe(true);
  });
});

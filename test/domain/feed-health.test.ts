import { describe, expect, it } from 'vitest';
import {
  FEED_STOP_HOLD_MS,
  type FeedHealthObservation,
  type FeedHealthState,
  type FeedStop,
  nextFeedHealthDue,
  stepFeedHealth,
  UNREACHABLE_HOLD_MS,
} from '../../src/domain/feed-health.js';

const project = 'solar-kiosk';
const t0 = Date.UTC(2026, 10, 29, 10, 0, 0);
const minute = 60_000;
const keyStop: FeedStop = { subject: 'key', feed: 'all', cause: 'key-rejected' };
const stopped = (stop: FeedStop, since?: number): FeedHealthObservation => ({
  stopped: [{ ...stop, ...(since !== undefined ? { since } : {}) }],
  working: [],
});
const working = (...subjects: string[]): FeedHealthObservation => ({ stopped: [], working: subjects });
const unknown: FeedHealthObservation = { stopped: [], working: [] };

/** Steps the rule at each (minute, observation) and collects everything it said. */
function run(steps: readonly [number, FeedHealthObservation][], start: FeedHealthState = {}) {
  let state = start;
  const said: { at: number; change: string; id: string }[] = [];
  let flaps = 0;
  for (const [at, seen] of steps) {
    const step = stepFeedHealth(project, state, seen, t0 + at * minute);
    state = step.next;
    flaps += step.flaps;
    for (const e of step.events) said.push({ at, change: e.change, id: e.id });
  }
  return { state, said, flaps };
}

describe('feed health: the rule', () => {
  it('holds a stop for 3 minutes, then says it once, however often it is seen again', () => {
    const steps: [number, FeedHealthObservation][] = [0, 1, 2, 2.9, 3, 4, 10, 60].map((m) => [
      m,
      stopped(keyStop, t0),
    ]);
    const { said, state } = run(steps);
    expect(said).toEqual([{ at: 3, change: 'stopped', id: `feed-health:${project}:key:${t0}:stopped` }]);
    expect(state.key?.announced).toBe(true);
    expect(FEED_STOP_HOLD_MS).toBe(3 * minute);
  });

  it('says the resume of a said stop once, with an id of its own', () => {
    const { said, state } = run([
      [0, stopped(keyStop)],
      [5, stopped(keyStop)],
      [9, working('key')],
      [10, working('key')],
    ]);
    expect(said.map((s) => [s.at, s.change])).toEqual([
      [5, 'stopped'],
      [9, 'resumed'],
    ]);
    expect(said[1]?.id).toBe(`feed-health:${project}:key:${t0}:resumed`);
    expect(state).toEqual({});
  });

  it('a flap (stopped and back within the hold) says nothing, and counts as a flap', () => {
    const { said, flaps, state } = run([
      [0, stopped(keyStop)],
      [1, stopped(keyStop)],
      [2.5, working('key')],
      [4, working('key')],
      [10, working('key')],
    ]);
    expect(said).toEqual([]);
    expect(flaps).toBe(1);
    expect(state).toEqual({});
  });

  it('keeps a stop while its subject is unknown (a restart before the first poll): nothing repeated or forgotten', () => {
    const before = run([
      [0, stopped(keyStop)],
      [4, stopped(keyStop)],
    ]);
    expect(before.said).toHaveLength(1);
    // The restart: the stored state is read back; the first cycles know nothing yet, then the key is still refused.
    const stored = JSON.parse(JSON.stringify(before.state)) as FeedHealthState;
    const after = run(
      [
        [5, unknown],
        [6, stopped(keyStop)],
        [30, stopped(keyStop)],
      ],
      stored,
    );
    expect(after.said).toEqual([]);
    // The key fixed while the bot was down: the first cycle that gets through says the resume, once.
    const fixed = run(
      [
        [40, unknown],
        [41, working('key')],
        [42, working('key')],
      ],
      after.state,
    );
    expect(fixed.said.map((s) => s.change)).toEqual(['resumed']);
  });

  it('a stop not yet said when the bot restarts is said when its hold ends, counted from the stop, not the restart', () => {
    const before = run([[0, stopped(keyStop)]]);
    const after = run(
      [
        [2, unknown],
        [3, stopped(keyStop)],
      ],
      before.state,
    );
    expect(after.said.map((s) => [s.at, s.change])).toEqual([[3, 'stopped']]);
  });

  it('waits 10 minutes from the last success before saying the API is out of reach', () => {
    const api: FeedStop = { subject: 'api', feed: 'all', cause: 'unreachable' };
    const steps: [number, FeedHealthObservation][] = [1, 5, 9.9, 10, 11].map((m) => [m, stopped(api, t0)]);
    const { said } = run(steps);
    expect(said.map((s) => s.at)).toEqual([10]);
    expect(UNREACHABLE_HOLD_MS).toBe(10 * minute);
    // Down for 8 minutes, then back: nothing at all.
    expect(
      run([
        [1, stopped(api, t0)],
        [8, stopped(api, t0)],
        [8.5, working('api')],
      ]).said,
    ).toEqual([]);
  });

  it('keeps one stop per subject: a scope and the key are said apart, each to its own kinds', () => {
    const scope: FeedStop = {
      subject: 'scope:wall',
      feed: 'wall',
      cause: 'scope-missing',
      scope: 'wall:read',
    };
    const step = stepFeedHealth(
      project,
      {},
      { stopped: [{ ...scope, since: t0 }], working: ['key', 'scope:fundings'] },
      t0 + 3 * minute,
    );
    expect(step.events).toHaveLength(1);
    expect(step.events[0]?.kinds).toEqual(['wall']);
    const key = stepFeedHealth(project, {}, stopped(keyStop, t0), t0 + 3 * minute);
    expect(key.events[0]?.kinds).toContain('supporters');
    expect(key.events[0]?.kinds).toContain('blog');
  });

  it('a cause that changes before the stop is said keeps the stop and its start', () => {
    const foreign: FeedStop = { ...keyStop, cause: 'key-wrong-project' };
    const { said, state } = run([
      [0, stopped(keyStop)],
      [2, stopped(foreign)],
      [3, stopped(foreign)],
    ]);
    expect(said.map((s) => s.id)).toEqual([`feed-health:${project}:key:${t0}:stopped`]);
    expect(state.key?.stop.cause).toBe('key-wrong-project');
  });

  it('names when the next unsaid stop is due, for the scheduler to wake', () => {
    const { state } = run([[0, stopped(keyStop)]]);
    expect(nextFeedHealthDue(state)).toBe(t0 + FEED_STOP_HOLD_MS);
    expect(nextFeedHealthDue(state, 10_000)).toBe(t0 + 10_000);
    expect(
      nextFeedHealthDue(
        run([
          [0, stopped(keyStop)],
          [3, stopped(keyStop)],
        ]).state,
      ),
    ).toBe(Infinity);
  });
});

import { describe, expect, it } from 'vitest';
import { createHealthMonitor } from '../../src/ops/health.js';
import { createStoreWatch } from '../../src/ops/store-watch.js';
import { recordingLogger } from '../slack/helpers.js';
import { ManualClock } from '../support/manual-clock.js';

const project = 'solar-kiosk';

describe('health monitor: poll outcomes', () => {
  it('a project the engine paused for a rejected key is unhealthy even though it makes no polls', () => {
    const clock = new ManualClock();
    let paused: { reason: string; since: number } | null = null;
    const monitor = createHealthMonitor({
      clock,
      projects: [project],
      paused: () => new Map(paused ? [[project, paused]] : []),
    });
    monitor.recordPoll({ project, feed: 'fundings', result: 'ok' });
    expect(monitor.report().healthy).toBe(true);
    paused = {
      reason: 'the platform rejected the API key (invalid, disabled or deleted)',
      since: clock.now(),
    };
    clock.advance(4_000);
    const report = monitor.report();
    expect(report.healthy).toBe(false);
    expect(report.checks[`poll:${project}`]?.detail).toMatch(
      /rejected the API key.*paused for 4 s; replace the key/,
    );
    paused = null;
    expect(monitor.report().healthy).toBe(true);
  });

  it('turns unhealthy at once when every feed of a project fails, naming it, and recovers with one success', () => {
    const clock = new ManualClock();
    const monitor = createHealthMonitor({ clock, projects: [project] });
    monitor.recordPoll({ project, feed: 'fundings', result: 'ok' });
    monitor.recordPoll({ project, feed: 'wall', result: 'ok' });
    monitor.recordPoll({ project, feed: 'fundings', result: 'error' });
    expect(monitor.report().healthy).toBe(true); // one feed still works
    clock.advance(3_000);
    monitor.recordPoll({ project, feed: 'wall', result: 'error' });
    // A Retry-After wait says nothing about health.
    monitor.recordPoll({ project, feed: 'blog', result: 'rate_limited' });
    clock.advance(2_000);
    const report = monitor.report();
    expect(report.healthy).toBe(false);
    expect(report.checks[`poll:${project}`]?.detail).toBe(
      'every feed fails (error) since 5 s: see the warnings in the log',
    );
    monitor.recordPoll({ project, feed: 'wall', result: 'ok' });
    expect(monitor.report().healthy).toBe(true);
  });

  it('names a rejected key when every feed answers forbidden', () => {
    const clock = new ManualClock();
    const monitor = createHealthMonitor({ clock, projects: [project] });
    for (const feed of ['project', 'fundings', 'wall'])
      monitor.recordPoll({ project, feed, result: 'forbidden' });
    const check = monitor.report().checks[`poll:${project}`];
    expect(check?.ok).toBe(false);
    expect(check?.detail).toContain("rejects this project's key on every feed");
  });

  it('reads the project list on every report (projects enabled after the key check)', () => {
    const clock = new ManualClock();
    let projects: string[] = [];
    const monitor = createHealthMonitor({ clock, projects: () => projects, pollStaleAfterMs: 1_000 });
    clock.advance(2_000);
    expect(monitor.report().healthy).toBe(true);
    projects = [project];
    expect(monitor.report().checks[`poll:${project}`]?.ok).toBe(false);
  });
});

describe('store watch', () => {
  it('marks the store unhealthy on a failure, logs at error once per minute with what to check, and recovers', () => {
    const clock = new ManualClock();
    const logger = recordingLogger();
    const monitor = createHealthMonitor({ clock, projects: [], storeName: 'Redis at cache:6379' });
    const watch = createStoreWatch({
      clock,
      logger,
      health: monitor,
      storeUrl: 'redis://:hunter2-password@cache:6379',
    });
    watch.observe({ operation: 'get', ok: true, durationMs: 1 });
    expect(monitor.report().healthy).toBe(true);
    for (let second = 0; second < 120; second += 5) {
      watch.observe({
        operation: 'set',
        ok: false,
        durationMs: 5_000,
        error: new Error('The client is offline'),
      });
      clock.advance(5_000);
    }
    const report = monitor.report();
    expect(report.healthy).toBe(false);
    expect(report.checks.store?.detail).toBe(
      'Redis at cache:6379 fails since 120 s: set failed: Error: The client is offline; check that Redis at cache:6379 is running and reachable from this host (store.url), and its password',
    );
    const errors = logger.records.filter((r) => r.level === 'error');
    expect(errors).toHaveLength(2); // at 0 s and at 60 s
    expect(errors[0]?.msg).toContain('check that Redis at cache:6379 is running and reachable');
    expect(JSON.stringify(logger.records)).not.toContain('hunter2');

    // A read that succeeds says nothing about writes (a read-only file answers every read): still failing.
    watch.observe({ operation: 'get', ok: true, durationMs: 1 });
    expect(monitor.report().healthy).toBe(false);
    expect(monitor.report().checks.store?.detail).toContain('set failed');
    watch.observe({ operation: 'set', ok: true, durationMs: 1 });
    expect(monitor.report().healthy).toBe(true);
    expect(logger.records.at(-1)?.msg).toContain('the store answers again');
  });
});

describe('health monitor: the daily digest', () => {
  it('turns unhealthy while a channel’s latest digest failed, naming it and why, and recovers when it is posted', () => {
    const clock = new ManualClock();
    const monitor = createHealthMonitor({ clock, projects: [project] });
    monitor.recordPoll({ project, feed: 'fundings', result: 'ok' });
    // No digest yet: nothing to say.
    expect(monitor.report().checks['digest']).toBeUndefined();
    monitor.recordDigest(`${project} discord:1:2`, 'TypeError: action is not a function');
    clock.advance(7_000);
    monitor.recordDigest(`${project} slack:T1:C1`, undefined);
    const failing = monitor.report();
    expect(failing.healthy).toBe(false);
    expect(failing.checks['digest']?.detail).toBe(
      'the daily digest did not reach solar-kiosk discord:1:2 (TypeError: action is not a function, failing since 7 s): fundbot keeps trying until the end of its day (a channel it cannot post in: at each hourly check); see the delivery warnings in the log',
    );
    monitor.recordDigest(`${project} discord:1:2`, undefined);
    expect(monitor.report()).toMatchObject({
      healthy: true,
      checks: { digest: { ok: true, detail: '2 digest(s) posted, none failing' } },
    });
  });
});

describe('health monitor: a replica holding many projects', () => {
  it('counts its projects and names ten in the replica check; each held one keeps its own poll check', () => {
    const clock = new ManualClock();
    const held = Array.from({ length: 1_000 }, (_, i) => `project-${String(i).padStart(4, '0')}`);
    const monitor = createHealthMonitor({
      clock,
      projects: () => held,
      replica: () => ({ id: 'replica-a', holds: held }),
      paused: () => new Map([['project-0007', { reason: 'the key was rejected', since: clock.now() }]]),
    });
    for (const p of held) monitor.recordPoll({ project: p, feed: 'fundings', result: 'ok' });
    const report = monitor.report();
    expect(report.checks['replica']?.detail).toBe(
      `replica replica-a holds 1000 project(s): ${held.slice(0, 10).join(', ')} and 990 more (each polled one has its poll:<project> check)`,
    );
    expect(Object.keys(report.checks).filter((c) => c.startsWith('poll:'))).toHaveLength(1_000);
    // The paused project is the one unhealthy check: the engine's pauses are read once per report.
    expect(
      Object.entries(report.checks)
        .filter(([, c]) => !c.ok)
        .map(([name]) => name),
    ).toEqual(['poll:project-0007']);
  });
});
